#!/bin/sh
# Lent-GPU call: the elementwise session on the new kernels (fp64 GELU erf in the CPU's form, bf16
# converted by a shift), the previous commit's kernels beside the new ones (same bench source, run
# alternately), ncu of fp64 and bf16 GELU erf where the machine has it, the SGEMM sanitizers.
# ab_old/ held `git archive b942745` with the new bench source (its case filter).
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
log ew session
for i in 1 2 3; do for f in gelu_erf bf16; do
  ab_old/build/elementwise/bench_cuda_elementwise 512 $f > /tmp/ew/ab/old_${f}_$i.log 2>&1
  build/elementwise/bench_cuda_elementwise 512 $f > /tmp/ew/ab/new_${f}_$i.log 2>&1
done; done
for f in gelu_erf bf16; do paste -d'|' /tmp/ew/ab/old_${f}_3.log /tmp/ew/ab/new_${f}_3.log | grep -v '{' | sed 's/ (spread[^)]*)//g; s/copy *[0-9.]* GB.s//g; s/  */ /g'; done
cp /tmp/build.log /tmp/build_old.log /tmp/ew/; tar czf $OUT/ew.tar.gz -C /tmp ew
log old vs new
mkdir -p /tmp/ncu
if command -v ncu > /dev/null || test -x /usr/local/cuda/bin/ncu; then
  NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for k in "d:gelu_erf f64" "13__nv_bfloat16:gelu_erf bf16" "6__half:gelu_erf f16"; do
    timeout 60 $NCU --kernel-name-base mangled -k regex:"tg__ewd_kernelI${k%%:*}Lb1ELi3E" -c 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis \
      build/elementwise/bench_cuda_elementwise 256 "${k#*:}" > "/tmp/ncu/ew_${k%%:*}.txt" 2>&1
  done
else echo "no ncu on this machine" > /tmp/ncu/none.txt; fi
tar czf $OUT/ncu.tar.gz -C /tmp ncu
log ncu
timeout 120 sh tests/cuda/gpu_session.sh $OUT sanitizers > /tmp/san.log 2>&1; tail -5 /tmp/san.log
log end
