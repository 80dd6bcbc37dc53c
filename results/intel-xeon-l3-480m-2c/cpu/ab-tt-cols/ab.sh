#!/bin/bash
# fp64 TT and TN through ukernel_cols's one-vector tiles (stored through an 8 x 8 register
# transpose), against the build before and a copy of it; usage: ab.sh before.so new.so copy.so
# one line a run: transposes, shape, new / before, copy / before (medians of 3 lines)
cd /work/main
run() { # layout, transposes, shapes...
  local l=$1 t=$2; shift 2
  for sh in "$@"; do
    env LAYOUT=$l OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm d $sh 3 $A@1 $B@1 $C@1 |
      awk -v t="$l $t" '/rate/{n++; r=$0; sub(/.*: /,"",r); sub(/ \(lines.*/,"",r); v[n]=r}
                        /^d /{h=$2} END{print t, h, "new", v[1], "copy", v[2]}'
  done
}
A=$1 B=$2 C=$3
# the tiny route's TT form (B under one panel wide, or A at most eight rows) and shapes it leaves
run row TT 2x3x2 3x3x3 4x4x4 5x5x5 8x8x8 12x12x12 15x15x15 16x16x16 20x20x20 24x24x24 32x32x32 \
  40x40x40 8x16x8 8x24x8 8x40x8 16x8x16 40x8x40 40x5x40 16x12x16 32x12x32 32x16x32 12x16x12
run col TT 3x3x3 8x8x8 12x12x12 40x5x40 8x40x8
# the earlier callers, whose blocks of at most eight rows now take the one-vector tile
run row TN 40x6x64 24x5x64 72x12x64 100x5x64 56x4x100 8x6x64 24x20x64 16x7x48
run row TT 40x6x64 24x5x64 72x12x64 100x5x64 56x4x100 8x6x64 24x20x64 16x7x48
