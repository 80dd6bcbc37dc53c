#!/bin/bash
# tgemm against OpenBLAS on squares 8-128, 1 thread, four transposes
# usage: squares-vs-openblas.sh tgemm.so
# one line a run: type, shape, transposes, tgemm / OpenBLAS (above 1 tgemm faster)
cd /work/main
OB=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
for p in s d; do for t in NN NT TN TT; do for s in 8 12 16 24 32 34 36 48 64 80 96 128; do
  env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p ${s}x${s}x${s} 3 $OB@1 $1@1 | awk -v t=$t '/rate/{r=$0; sub(/.*: /,"",r)} /^[sd] /{h=$1" "$2} END{print h, t, r}'
done; done; done
