#!/bin/sh
# Lent-GPU call 2: the elementwise session on c81b718 (fp64 GELU erf without branches or the IEEE
# division), beside 4745258 (ab_old/, the form of call 1) and c81b718 with one 128-bit vector a
# thread per iteration instead of two (ab_u1/: 39 registers for fp64 GELU erf against 51), run
# alternately on the same bench source; ncu of the new fp64 GELU erf.
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
make -C ab_old -s -j5 build/elementwise/bench_cuda_elementwise > /tmp/build_old.log 2>&1 &
make -C ab_u1 -s -j5 build/elementwise/bench_cuda_elementwise > /tmp/build_u1.log 2>&1 &
make -s -j6 build/elementwise/test_cuda_elementwise build/elementwise/bench_cuda_elementwise \
    > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
wait
log built
mkdir -p /tmp/ew/ab
timeout 150 sh tests/elementwise/gpu_session.sh /tmp/ew
log ew session
for i in 1 2 3; do for v in old u1 new; do
  b=build/elementwise/bench_cuda_elementwise; [ $v = new ] || b=ab_$v/$b
  $b 512 gelu_erf > /tmp/ew/ab/${v}_$i.log 2>&1
done; done
for v in old u1 new; do echo "== $v"; grep -h "ratio" /tmp/ew/ab/${v}_*.log | sed 's/ (spread[^)]*)//g; s/copy *[0-9.]* GB.s//g; s/  */ /g' | sort; done
cp /tmp/build*.log /tmp/ew/; tar czf $OUT/ew.tar.gz -C /tmp ew
log old vs u1 vs new
mkdir -p /tmp/ncu
for v in new u1; do
  b=build/elementwise/bench_cuda_elementwise; [ $v = new ] || b=ab_$v/$b
  timeout 60 ncu --kernel-name-base mangled -k regex:"tg__ewd_kernelIdLb1ELi3E" -c 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis \
    --section InstructionStats $b 256 "gelu_erf f64" > /tmp/ncu/ew_d_$v.txt 2>&1
  grep -E "Issue Slots Busy|Executed Ipc A|Achieved Occupancy|Registers Per|highest-utilized|Executed Instructions  " /tmp/ncu/ew_d_$v.txt | cut -c1-120
done
tar czf $OUT/ncu.tar.gz -C /tmp ncu
log end
