#!/bin/sh
# Lent-GPU call of 2026-11-26 (third session that day): the elementwise session on the kernels with
# fp64 GELU erf's rational erfcx (e3d608f), that kernel against the previous commit's (f275f98,
# ab_old/, same bench source) alternately, the CUDA test suite and single header, then the
# crossover phase against the CPU library as it now is (its last run was at 427e1936a41f).
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
make -C ab_old -s -j6 build/elementwise/bench_cuda_elementwise > /tmp/build_old.log 2>&1 &
make -s -j12 build/elementwise/test_cuda_elementwise build/elementwise/bench_cuda_elementwise \
    > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
wait
log built
mkdir -p /tmp/ew/ab
timeout 150 sh tests/elementwise/gpu_session.sh /tmp/ew
cp /tmp/build.log /tmp/build_old.log /tmp/ew/; tar czf $OUT/ew.tar.gz -C /tmp ew
log ew session
for i in 1 2 3; do
  ab_old/build/elementwise/bench_cuda_elementwise 512 gelu_erf > /tmp/ew/ab/old_$i.log 2>&1
  build/elementwise/bench_cuda_elementwise 512 gelu_erf > /tmp/ew/ab/new_$i.log 2>&1
done
paste -d'|' /tmp/ew/ab/old_3.log /tmp/ew/ab/new_3.log | grep -v '{' | sed 's/  */ /g'
tar czf $OUT/ew.tar.gz -C /tmp ew
log old vs new
timeout 100 sh tests/cuda/gpu_session.sh $OUT tests > /tmp/tests.log 2>&1; tail -4 /tmp/tests.log
log tests
timeout 230 sh tests/cuda/gpu_session.sh $OUT crossover > /tmp/cross.log 2>&1; tail -4 /tmp/cross.log
log end
