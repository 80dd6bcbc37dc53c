#!/bin/sh
# Lent-GPU call of 2026-11-29, the first on an H200: main at f162e6a. The CUDA kernels are those
# verified on the H100 at c9dc155; since then the library is built as one translation unit
# (a15841b), tgemm-bench gained the gemv family (6905c6e) and the CPU library changed (the
# crossover's host side). In one call: the elementwise session (tests, > 2^31 elements, memcheck,
# racecheck, bandwidth against the device copy), the SGEMM suite, single header and sanitizers,
# tgemm-bench's GPU tests, the ceilings, the ladder against cuBLAS and the linear family; then the
# crossover for the time left (its archive is rewritten after every step).
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
timeout 120 sh tests/elementwise/gpu_session.sh /tmp/ew
tar czf $OUT/ew.tar.gz -C /tmp ew
log ew session
TGEMM_SANITIZER_LIMIT=60 timeout 380 sh tests/cuda/gpu_session.sh $OUT tests,sanitizers,bench \
    > /tmp/cuda.log 2>&1
tail -30 /tmp/cuda.log; cp /tmp/cuda.log $OUT/cuda_session.log
log cuda tests, sanitizers, bench
left=$((570 - $(el)))
[ $left -gt 40 ] && timeout $left sh tests/cuda/gpu_session.sh $OUT crossover > $OUT/crossover_session.log 2>&1
tail -5 $OUT/crossover_session.log
log end
