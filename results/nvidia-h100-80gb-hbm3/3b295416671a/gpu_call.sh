#!/bin/sh
# Second lent-GPU call: the elementwise session on the new kernels, the previous
# commit's bench beside the new one, the SGEMM tests and the launcher against step 8/9 and cuBLAS.
# ab_old/ held `git archive 427e1936a41f`. Sent as: TGEMM_COMMIT=3b295416671a OUT=$OUT sh gpu_call.sh
export TGEMM_COMMIT=${TGEMM_COMMIT:?} ; OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
log() { echo "[$(el) s] $*"; }
make -C ab_old -s -j6 build/elementwise/bench_cuda_elementwise > /tmp/build_old.log 2>&1 &
make -s -j12 build/tgemm-bench-cuda build/cuda/test_cuda build/cuda/single_header \
    build/elementwise/test_cuda_elementwise build/elementwise/bench_cuda_elementwise > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
wait
log built
mkdir -p /tmp/ew/prev /tmp/sg
timeout 150 sh tests/elementwise/gpu_session.sh /tmp/ew
log ew session
ab_old/build/elementwise/bench_cuda_elementwise 512 > /tmp/ew/prev/bench_512mib.log 2>&1
build/elementwise/bench_cuda_elementwise 512 > /tmp/ew/bench_512mib_again.log 2>&1
paste -d'|' /tmp/ew/prev/bench_512mib.log /tmp/ew/bench_512mib_again.log | grep -v '{' | sed 's/ (spread[^)]*)//g; s/copy *[0-9.]* GB.s//g; s/  */ /g'
cp /tmp/build.log /tmp/build_old.log /tmp/ew/; tar czf $OUT/ew.tar.gz -C /tmp ew
log prev vs new
build/cuda/test_cuda > /tmp/sg/test_cuda.log 2>&1; tail -3 /tmp/sg/test_cuda.log
log test_cuda
timeout 60 build/tgemm-bench-cuda --device cuda --sizes 1024,2048,4096,4093 --rounds 2 --repetitions 3 \
  --impl cuda-08-warptile,cuda-09-double_buffer,tgemm-cuda,cublas \
  --out /tmp/sg/launcher.json > /tmp/sg/launcher.log 2>&1; tail -2 /tmp/sg/launcher.log | cut -c1-160
tar czf $OUT/sg.tar.gz -C /tmp sg
log end
