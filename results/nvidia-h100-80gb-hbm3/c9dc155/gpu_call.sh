#!/bin/sh
# Lent-GPU call of 2026-11-27: main at c9dc155. The CUDA kernels are those verified at a641ce1
# (sm_90 PTX of the elementwise kernels byte-identical, md5 c97098c4...); new since is the CUDA
# elementwise test's specials +-DBL_MAX and +-0.75 DBL_MAX (26bc40b), never yet run on a GPU.
# The elementwise session (tests, > 2^31 elements, memcheck, racecheck, bandwidth against the
# device copy), the SGEMM suite, single header and sanitizers, and the ladder on two sizes against
# cuBLAS in the same run.
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
timeout 200 sh tests/elementwise/gpu_session.sh /tmp/ew
tar czf $OUT/ew.tar.gz -C /tmp ew
log ew session
TGEMM_SANITIZER_LIMIT=60 timeout 240 sh tests/cuda/gpu_session.sh $OUT tests,sanitizers > /tmp/cuda.log 2>&1
tail -12 /tmp/cuda.log; cp /tmp/cuda.log $OUT/cuda_session.log
log cuda tests and sanitizers
timeout 120 build/tgemm-bench-cuda --device cuda --sizes 1024,4096 --rounds 2 --repetitions 2 \
    --out $OUT/ladder.json 2> $OUT/ladder.log
tail -3 $OUT/ladder.log
log end
