#!/bin/bash
# TN products with one or two columns past whole panels: OpenBLAS against tgemm's build before
# (base) and with the column products over all rows at once (new), 1 thread, 5 lines
# usage: vs-openblas.sh base.so new.so
cd /work/main
OB=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
for sh in "d 34x34x34" "s 34x34x34" "d 33x33x33" "s 18x18x18" "d 17x17x17" "d 64x18x64" \
          "s 64x34x64" "d 64x9x64" "s 100x17x100" "d 100x10x100"; do
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=TN build/ab-gemm $sh 5 $OB@1 $1@1 $2@1
done
