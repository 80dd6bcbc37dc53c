#!/bin/sh
# The first sweep, behind b44bc63's AVX-512 rule (gemv_near): a C of r = 2, 3, 4 rows, row-major NN,
# 1 thread, the rows form forced at every size against the rule before (c9dc155: the rows form
# only over an M of 128^2 elements or more for two rows, only beyond L2 for three or four; else
# the small path's tiles), side by side in one process. FORCED is c9dc155 built with
#     if (getenv("TGX_R")) return atoi(getenv("TGX_R"));
# as the first line of tg__gemv_rows_max (no such hook is in the library), run with TGX_R=4.
# Then three checks of forcing three rows (TGX_R=3): 2 threads, column-major, a transposed A.
# usage: BASE=c9dc155's libtgemm.so FORCED=... sh sweep.sh > sweep.log
for t in s d; do
    for r in 2 3 4; do
        for n in 24 32 48 64 96 100 128 160 200 256 384 512 1024 4096; do
            for k in 64 128 256 512 2048; do
                echo "== $t ${r}x${n}x${k}"
                TGX_R=4 build/ab-gemm $t ${r}x${n}x${k} 5 "$BASE@1" "$FORCED@1"
            done
        done
    done
done
for sh in 3x256x256 3x100x512 3x512x128 2x64x64 2x128x100 3x1024x1024 3x4096x512 2x200x64; do
    m=${sh%%x*} rest=${sh#*x}
    echo "== s $sh 2 threads"
    TGX_R=3 build/ab-gemm s $sh 5 "$BASE@2" "$FORCED@2"
    echo "== s ${rest%%x*}x${m}x${rest#*x} column-major"
    LAYOUT=col TGX_R=3 build/ab-gemm s ${rest%%x*}x${m}x${rest#*x} 5 "$BASE@1" "$FORCED@1"
    echo "== d $sh TRANS=TN"
    TRANS=TN TGX_R=3 build/ab-gemm d $sh 5 "$BASE@1" "$FORCED@1"
done
