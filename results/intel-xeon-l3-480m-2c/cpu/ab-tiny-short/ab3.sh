#!/bin/bash
# tiny route for one row or column of C (gemv.c's forms called directly) against the build before
cd /work/main
for p in s d; do for t in NN NT TN TT; do for sh in 1x1x8 1x1x40 1x8x8 8x1x8 1x16x16 16x1x16 1x40x40 40x1x40 1x40x4 4x1x40 8x8x8 16x16x16; do
  echo "# env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 before.so@1 new.so@1 before-copy.so@1"
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 $1@1 $2@1 $3@1
done; done; done
