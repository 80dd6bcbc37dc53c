#!/bin/bash
# the TT form's even column blocks (9 and 10 as two, 17 as three) against blocks of eight and a
# rest of one or two to the panels; usage: ab2.sh before.so new.so copy-of-before.so
# one line a run: shape, new / before, copy / before (medians of 3 lines)
cd /work/main
for sh in 9x9x9 10x10x10 8x9x8 8x17x8 8x33x8 8x34x8 12x10x12 40x9x40 40x10x40 8x8x8 8x16x8 \
  14x14x14; do
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=TT build/ab-gemm d $sh 3 $1@1 $2@1 $3@1 |
    awk '/rate/{n++; r=$0; sub(/.*: /,"",r); sub(/ \(lines.*/,"",r); v[n]=r}
         /^d /{h=$2} END{print h, "new", v[1], "copy", v[2]}'
done
