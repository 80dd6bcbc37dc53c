#!/bin/bash
# tgemm against OpenBLAS on one-row products; usage: vs-openblas.sh tgemm.so
cd /work/main
OB=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
for p in d s; do for t in NN TN; do
  for sh in 1x8x8 1x17x64 1x24x24 1x32x32 1x40x8 1x40x40 1x64x64 1x100x100 1x128x128; do
    echo "# env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 $OB@1 tgemm.so@1"
    env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 $OB@1 $1@1
  done
done; done
