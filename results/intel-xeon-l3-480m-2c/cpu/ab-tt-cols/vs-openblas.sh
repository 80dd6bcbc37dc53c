#!/bin/bash
# fp64 TT against OpenBLAS, before and after; usage: vs-openblas.sh before.so new.so
# one line a run: shape, before / OpenBLAS, new / OpenBLAS (medians of 3 lines)
cd /work/main
OB=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
for sh in 2x2x2 3x3x3 4x4x4 6x6x6 8x8x8 9x9x9 10x10x10 12x12x12 15x15x15 16x16x16 24x24x24 32x32x32 \
  8x40x8 8x17x8 40x5x40 16x12x16; do
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=TT build/ab-gemm d $sh 3 $OB@1 $1@1 $2@1 |
    awk '/rate/{n++; r=$0; sub(/.*: /,"",r); sub(/ \(lines.*/,"",r); v[n]=r}
         /^d /{h=$2} END{print h, "before", v[1], "new", v[2]}'
done
