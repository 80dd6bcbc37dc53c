#!/bin/bash
# gemv passes through one helper (tg__gemv_pass8, new) against the two written-out copies (base)
cd /work/main
for sh in "d 1x24x24" "d 1x32x32" "d 1x64x64" "d 1x100x100" "s 1x40x40" "s 1x64x64" "s 1x128x128" "s 1x1000x1000" "d 1x31x1000" "s 2x512x512" "d 3x512x512" "s 4x1024x1024" "d 64x1x64" "s 128x1x128"; do
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 build/ab-gemm $sh 5 /tmp/y/head.so@1 /tmp/y/g1.so@1 /tmp/y/head_copy.so@1
done
for sh in "d 1x12x12" "d 1x16x1000" "s 1x24x24" "s 1x32x32" "s 1x64x64" "s 2x512x512"; do
  env TGEMM_ARCH=avx2 OPENBLAS_NUM_THREADS=1 C_OFFSET=16 build/ab-gemm $sh 5 /tmp/y/head.so@1 /tmp/y/g1.so@1 /tmp/y/head_copy.so@1
done
