#!/bin/bash
# one row of y over 2W to TG__GEMV_REGS vectors in registers (gemv_simd.inc's tg__gemv_regs)
# against the build before and a copy of it; usage: ab.sh before.so new.so before-copy.so
cd /work/main
run() { # env, type, transposes, shapes...
  local e=$1 p=$2 t=$3; shift 3
  for sh in "$@"; do
    echo "# env $e OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 before.so@1 new.so@1 before-copy.so@1"
    env $e OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 $A@1 $B@1 $C@1
  done
}
A=$1 B=$2 C=$3
D="1x24x24 1x32x32 1x40x8 1x40x40 1x64x64 1x17x64 1x31x1000 1x8x8 1x100x100"
S="1x40x8 1x40x40 1x64x64 1x100x100 1x128x128 1x33x1000 1x8x8 1x200x200"
for t in NN TN; do run X=1 d $t $D; run X=1 s $t $S; done
run LAYOUT=col d NN 24x1x24 64x1x64 40x1x40
run LAYOUT=col s NN 64x1x64 128x1x128
run TGEMM_ARCH=avx2 d NN 1x12x12 1x16x16 1x16x1000 1x32x32
run TGEMM_ARCH=avx2 s NN 1x24x24 1x32x32 1x20x8 1x64x64
