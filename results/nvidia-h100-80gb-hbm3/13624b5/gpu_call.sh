#!/bin/sh
# Lent-GPU call 2 of 2026-11-26 (third session): the elementwise session on 13624b5, where the fp64
# GELU erf kernel is back on its polynomial erfcx (PTX identical to f275f98's), and the CUDA test
# phase (suite and the regenerated single header).
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
timeout 200 sh tests/elementwise/gpu_session.sh /tmp/ew
tar czf $OUT/ew.tar.gz -C /tmp ew
log ew session
timeout 120 sh tests/cuda/gpu_session.sh $OUT tests > /tmp/tests.log 2>&1; tail -4 /tmp/tests.log
log end
