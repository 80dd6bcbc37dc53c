#!/bin/sh
# Lent-GPU call 1 of 2026-11-26 (fourth session): main at a641ce1, whose CUDA code is that of 13624b5
# (PTX of the elementwise kernels byte-identical), verified again whole: the elementwise session
# (tests, > 2^31 elements, memcheck, racecheck, bandwidth against the device copy), then the SGEMM
# suite, the single header, the sanitizers, and tgemm-bench's GPU side (its tests, ceilings, the
# ladder and the linear family against cuBLAS in the same run).
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
timeout 200 sh tests/elementwise/gpu_session.sh /tmp/ew
tar czf $OUT/ew.tar.gz -C /tmp ew
log ew session
timeout 380 sh tests/cuda/gpu_session.sh $OUT tests,sanitizers,bench > /tmp/cuda.log 2>&1; tail -8 /tmp/cuda.log
cp /tmp/cuda.log $OUT/cuda_session.log
log end
