#!/bin/bash
# pair tile: plain stores for a whole tile with alpha 1, beta 0, from 8 deep (new) against the
# general stores (base), and a copy of base; 1 thread, C 16 bytes off a line, 5 lines
# usage: ab.sh base.so new.so copy.so
B=$1; N=$2; C=$3
cd /work/main
for sh in "d 24x24x24 TN" "d 32x32x32 TN" "d 36x36x36 TN" "d 48x48x48 TN" "d 64x64x64 TN" \
          "s 32x32x32 TN" "s 48x48x48 TN" "s 64x64x64 TN" "s 80x80x80 TN" \
          "d 32x32x32 NN" "d 40x40x40 NN" "d 48x48x48 NN" "s 48x48x48 NN" "s 64x64x64 NN" \
          "s 80x80x80 NN" "d 24x32x24 NN" "d 32x32x32 TT" "d 48x48x48 TT" "s 64x64x64 TT" \
          "s 256x256x4 NN" "s 1000x64x4 NN" "d 300x64x4 NN" "s 1000x64x8 NN" "d 300x64x8 NN" \
          "s 256x256x16 NN" "d 256x256x12 NN" "s 64x256x256 NN" "d 64x256x256 NN" \
          "s 6x256x256 NN" "d 6x256x256 NN" "s 4x256x256 NN" "d 4x128x512 NN" "s 3x256x256 NN" \
          "d 2x200x200 NN" "s 32768x64x256 NN" "d 8192x64x512 NN"; do
  set -- $sh
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$3 build/ab-gemm $1 $2 5 $B@1 $N@1 $C@1
done
