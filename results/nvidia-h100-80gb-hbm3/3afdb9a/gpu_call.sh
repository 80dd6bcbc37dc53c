#!/bin/sh
# Lent-GPU call 3: the elementwise session on the final kernels, then tgemm-bench's ceilings, the
# SGEMM ladder (the launcher on step 8 since 3b29541) and the linear family, as in
# tests/cuda/gpu_session.sh's bench phase without its harness tests (they ran on 6e9df9b; the
# harness is unchanged since); reports made off the device from the JSON.
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
make -s -j16 build/elementwise/test_cuda_elementwise build/elementwise/bench_cuda_elementwise \
    build/tgemm-bench-cuda > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
log built
timeout 150 sh tests/elementwise/gpu_session.sh /tmp/ew
cp /tmp/build.log /tmp/ew/; tar czf $OUT/ew.tar.gz -C /tmp ew
log ew session
mkdir -p /tmp/sg; b=build/tgemm-bench-cuda
$b machine --device cuda > /tmp/sg/machine.txt 2>&1
$b ceilings --device cuda --force --out /tmp/sg/ceilings.json 2> /tmp/sg/ceilings.log; tail -n 1 /tmp/sg/ceilings.log
log ceilings
timeout 170 $b --device cuda --sizes 256:8192:x2,1000,4093 --rounds 2 --repetitions 2 --ceilings /tmp/sg/ceilings.json \
    --out /tmp/sg/ladder.json 2> /tmp/sg/ladder.log; tail -n 1 /tmp/sg/ladder.log
tar czf $OUT/sg.tar.gz -C /tmp sg
log ladder
timeout 80 $b --device cuda --impl tgemm-cuda,cublas,cublas-tf32 --sizes linear --ceilings /tmp/sg/ceilings.json \
    --out /tmp/sg/linear.json 2> /tmp/sg/linear.log; tail -n 1 /tmp/sg/linear.log
tar czf $OUT/sg.tar.gz -C /tmp sg
log end
