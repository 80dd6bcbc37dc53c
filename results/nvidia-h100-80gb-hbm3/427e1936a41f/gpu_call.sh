#!/bin/sh
# One lent-GPU call: the new elementwise kernels against the old ones, the tests,
# step 8 with its launch bounds, the crossover, then the sanitizers with what time is left.
# ab_old/ held `git archive abfba68` with this commit's tests/elementwise/bench_cuda_elementwise.cu.
# Sent as: TGEMM_COMMIT=427e1936a41f OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
make -s -j12 build/tgemm-bench-cuda build/cuda/test_cuda build/cuda/single_header \
    build/elementwise/test_cuda_elementwise build/elementwise/bench_cuda_elementwise > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
make -C ab_old -s -j4 build/elementwise/bench_cuda_elementwise > /tmp/build_old.log 2>&1 || tail -5 /tmp/build_old.log
log built
mkdir -p /tmp/ew/old
timeout 150 sh tests/elementwise/gpu_session.sh /tmp/ew
log ew session
ab_old/build/elementwise/bench_cuda_elementwise 512 > /tmp/ew/old/bench_512mib.log 2>&1
build/elementwise/bench_cuda_elementwise 512 > /tmp/ew/bench_512mib_again.log 2>&1
paste -d'|' /tmp/ew/old/bench_512mib.log /tmp/ew/bench_512mib_again.log | grep -v '{' | sed 's/ (spread[^)]*)//g; s/copy *[0-9.]* GB.s//g' | cut -c1-150
cp /tmp/build.log /tmp/build_old.log /tmp/ew/; tar czf $OUT/ew.tar.gz -C /tmp ew
log old vs new
sh tests/cuda/gpu_session.sh $OUT tests > /tmp/tests.out 2>&1; tail -4 /tmp/tests.out
log tests
mkdir -p /tmp/s8
timeout 90 build/tgemm-bench-cuda --device cuda --sizes 1024,2048,4096 --rounds 2 --repetitions 3 \
  --impl cuda-07-bank_conflicts,cuda-08-warptile,cuda-09-double_buffer,tgemm-cuda,cublas \
  --out /tmp/s8/step8.json > /tmp/s8/step8.log 2>&1; tail -25 /tmp/s8/step8.log | cut -c1-160
tar czf $OUT/s8.tar.gz -C /tmp s8
log step8
timeout $((420 - $(el))) sh tests/cuda/gpu_session.sh $OUT crossover 2>&1 | tail -40
log crossover
left=$((575 - $(el))); [ $left -gt 60 ] && TGEMM_SANITIZER_LIMIT=$((left / 3)) timeout $((left)) sh tests/cuda/gpu_session.sh $OUT sanitizers 2>&1 | tail -6
log end
