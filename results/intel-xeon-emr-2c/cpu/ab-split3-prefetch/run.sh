#!/bin/sh
# AVX-512's tiles of one to three rows without the prefetch of B read in place (TG__PREFETCH_SHORT
# 0 in cpu/kernel_x86.c) against the build before, side by side in one process, a second copy of
# the old build as the control; then the new build beside MKL in a process of their own. Shapes
# with such a tile over a B in L1 or L2, and over a narrow B streamed from memory; the last lines
# with the AVX2 family forced (its code did not change: controls).
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for sh in "d 3x48x128" "s 3x96x64" "d 3x40x300" "s 9x128x128" "d 9x64x64" "s 13x512x512" \
              "s 3x48x256" "d 2x32x100" "s 3x1000x100" "d 3x40x100000" "s 3x64x100000" \
              "s 9x64x50000" "d 2x32x200000" "s 13x2048x2048" "s 64x64x64" "d 16x768x768"; do
        echo "$sh"
    done
}
for th in 1 2; do
    shapes | while read -r t sh; do
        echo "== $t $sh TRANS=NN LAYOUT=row, $th thread(s): old, new, old copy"
        build/ab-gemm $t "$sh" 9 "$BASE@$th" "$NEW@$th" "$BASE2@$th"
        echo "== $t $sh TRANS=NN LAYOUT=row, $th thread(s): new, MKL"
        build/ab-gemm $t "$sh" 7 "$NEW@$th" "$MKL@$th"
    done
done
shapes | while read -r t sh; do
    echo "== AVX2 $t $sh TRANS=NN LAYOUT=row, 1 thread: old, new, old copy"
    TGEMM_ARCH=avx2 build/ab-gemm $t "$sh" 9 "$BASE@1" "$NEW@1" "$BASE2@1"
done
