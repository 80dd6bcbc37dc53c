#!/bin/bash
# fp32 TT against OpenBLAS, before and after; usage: vs-openblas-s.sh before.so new.so
# one line a run: shape, before / OpenBLAS, new / OpenBLAS (medians of 3 lines)
cd /work/main
OB=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
for sh in 2x2x2 3x3x3 4x4x4 6x6x6 8x8x8 12x12x12 16x16x16 16x8x16 40x8x40 40x5x40 16x6x16; do
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=TT build/ab-gemm s $sh 3 $OB@1 $1@1 $2@1 |
    awk '/rate/{n++; r=$0; sub(/.*: /,"",r); sub(/ \(lines.*/,"",r); v[n]=r}
         /^s /{h=$2} END{print h, "before", v[1], "new", v[2]}'
done
