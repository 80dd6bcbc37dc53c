#!/bin/bash
# new tiny route (2..4 rows or columns) against base and a copy of base
cd /work/main
for p in s d; do for t in NN NT TN TT; do for sh in 2x2x2 3x3x3 4x4x4 4x8x8 8x4x8 4x16x16 16x4x16 3x40x40 40x3x40 2x40x40; do
  echo "# env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 base.so@1 new.so@1 base-copy.so@1"
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p $sh 3 $1@1 $2@1 $3@1
done; done; done
