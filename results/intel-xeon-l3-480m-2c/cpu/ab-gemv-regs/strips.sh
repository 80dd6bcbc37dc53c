#!/bin/bash
# strips.patch (tg__gemv_regs over any one-row y, TG__GEMV_REGS vectors at a time down all of k)
# over the register form alone; usage: strips.sh regs.so strips.so
cd /work/main
run() { # env, type, shapes...
  local e=$1 p=$2; shift 2
  for sh in "$@"; do
    echo "# env $e OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=NN build/ab-gemm $p $sh 3 regs.so@1 strips.so@1"
    env $e OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=NN build/ab-gemm $p $sh 3 $R@1 $S@1
  done
}
R=$1 S=$2
run X=1 d 1x100x100 1x128x128 1x256x256 1x256x8000 1x1000x1000
run X=1 s 1x200x200 1x256x256 1x4096x4096
run TGEMM_ARCH=avx2 d 1x48x48 1x64x64 1x128x128 1x64x20000
run TGEMM_ARCH=avx2 s 1x64x64 1x128x20000
