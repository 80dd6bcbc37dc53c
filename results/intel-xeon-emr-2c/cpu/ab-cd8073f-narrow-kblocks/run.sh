#!/bin/sh
# One panel of B over a tall A (cd8073f: k blocks half of L2 deep where A is larger than L2) against
# the build before it (bfcc6f1), side by side in one process, with a second copy of the old build
# as the control and MKL as the yardstick, all on the same thread count. BASE, BASE2 (a copy of
# BASE), NEW: the three libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
for t in 1 2; do
    for sh in "s 4096x32x4096" "d 4096x16x4096" "s 1024x32x32768" "d 1024x16x32768" \
              "s 2048x32x512" "s 8192x32x512" "d 2048x16x512" "d 8192x16x512" "d 8192x8x512" \
              "s 8192x20x512" "s 192x32x4096" "d 192x16x2048" "s 128x32x4096" "d 128x16x4096" \
              "s 72x32x8192" "d 96x16x4096"; do
        [ $t = 2 ] && case "$sh" in *x32x4096|*x16x4096|*x16x512|*x32x512) ;; *) continue ;; esac
        THREADS=$t build/ab-gemm $sh 5 "$BASE@$t" "$NEW@$t" "$BASE2@$t" "$MKL@$t"
    done
done
# the family forced to AVX2 (its panels half as wide), and the transposes (A transposed keeps the
# blocks of L1's depth)
for sh in "s 4096x16x4096" "d 8192x8x512" "s 2048x16x512"; do
    TGEMM_ARCH=avx2 build/ab-gemm $sh 5 "$BASE@1" "$NEW@1" "$BASE2@1" "$MKL@1"
done
for tr in NT TN; do
    for sh in "s 4096x32x4096" "d 8192x16x512"; do
        TRANS=$tr build/ab-gemm $sh 5 "$BASE@1" "$NEW@1" "$BASE2@1" "$MKL@1"
    done
done
