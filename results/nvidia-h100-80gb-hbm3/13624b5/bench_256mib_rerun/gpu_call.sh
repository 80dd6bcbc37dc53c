#!/bin/sh
# Lent-GPU call 3 of 2026-11-26 (third session): the 256 MiB benchmark again at 13624b5, whose
# call-2 reading of relu f32 (88.6%, spread 11%) was the one row under 90%: the full table once,
# then relu three times.
# Sent as: TGEMM_COMMIT=<sha> OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
make -s -j16 build/elementwise/bench_cuda_elementwise > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
build/elementwise/bench_cuda_elementwise 256 > $OUT/bench_256mib.log 2>&1
for i in 1 2 3; do build/elementwise/bench_cuda_elementwise 256 relu > $OUT/bench_256mib_relu_$i.log 2>&1; done
grep -v '^{' $OUT/bench_256mib.log | awk '{print $1, $2, $NF}' | tr '\n' ';'; echo
cat $OUT/bench_256mib_relu_*.log | grep -v '^{'
