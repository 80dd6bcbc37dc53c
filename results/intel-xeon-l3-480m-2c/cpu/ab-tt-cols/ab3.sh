#!/bin/bash
# fp32: the TT form for C's columns in one block of three to eight, and ukernel_cols's one-vector
# tile (an 8 x 16 register transpose), against the build before (3950bec) and a copy of it; usage:
# ab3.sh before.so new.so copy-of-before.so; one line a run: transposes, shape, new / before, copy
# / before (medians of 3 lines)
cd /work/main
run() { # transposes, shapes...
  local t=$1; shift
  for sh in "$@"; do
    env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm s $sh 3 $A@1 $B@1 $C@1 |
      awk -v t=$t '/rate/{n++; r=$0; sub(/.*: /,"",r); sub(/ \(lines.*/,"",r); v[n]=r}
                   /^s /{h=$2} END{print t, h, "new", v[1], "copy", v[2]}'
  done
}
A=$1 B=$2 C=$3
run TT 3x3x3 4x4x4 8x8x8 16x8x16 40x8x40 40x5x40 16x6x16 20x7x20 36x6x36 24x8x24 32x8x32 \
  32x6x32 32x5x32 40x3x40 12x12x12 16x16x16 24x24x24 8x40x8
for t in TN TT; do run $t 40x6x64 16x20x64 48x4x100 100x5x64 12x5x24 64x19x64; done
