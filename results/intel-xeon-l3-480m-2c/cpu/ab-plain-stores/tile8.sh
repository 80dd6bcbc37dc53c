#!/bin/bash
# triple-width tiles (tile8: rows8, the triples, the blocked path's wide kernel): plain stores for
# a whole tile with alpha 1, beta 0, from 8 deep (new) against the general stores (base), and a
# copy of base; 1 thread, C 16 bytes off a line, 5 lines
# usage: ab8.sh base.so new.so copy.so
B=$1; N=$2; C=$3
cd /work/main
for sh in "s 32x32x32 NN" "s 32x32x32 TN" "d 16x16x16 NN" "d 16x16x16 TN" "s 24x24x24 NN" "d 24x24x24 NN" \
          "s 48x48x48 TN" "s 20x32x20 NN" "s 96x32x96 NN" "s 1000x32x64 NN" "d 256x16x256 NN" \
          "d 40x16x40 NN" "s 8x32x8 NN" "s 8x512x256 NN" "s 16x768x768 NN" "d 7x256x256 NN" \
          "d 8x1024x1024 NN" "s 13x512x512 NN" "d 16x240x256 NN" "s 24x150x150 NN" "d 8x100x256 NN" \
          "s 512x512x512 NN" "d 512x512x512 NN" "s 1024x1024x1024 NN" "d 1024x1024x1024 NN" \
          "s 4096x32x4096 NN" "d 8192x16x512 NN"; do
  set -- $sh
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$3 build/ab-gemm $1 $2 5 $B@1 $N@1 $C@1
done
