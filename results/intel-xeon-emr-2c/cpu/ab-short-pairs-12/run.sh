#!/bin/sh
# AVX-512's pairs of panels (cpu/small.c's tg__small_pairs) for a short A of up to two 6-row tiles
# (12 rows) instead of four rows, against the build before (730add7), side by side in one process,
# a second copy of the old build as the control; then the new build beside MKL in a process of
# their own. The last lines with the AVX2 family forced (no pair kernel: controls).
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for sh in "s 5x256x256" "s 6x256x256" "d 6x256x256" "s 8x512x256" "s 9x128x128" "s 12x256x256" \
              "d 10x200x200" "s 7x1000x100" "s 6x128x128" "s 5x1000x1000" "s 6x2048x1024" \
              "d 6x1000x1000" "s 8x4096x4096" "s 4x256x256" "s 13x512x512" "s 16x768x768" \
              "s 64x64x64"; do
        echo "$sh"
    done
}
for th in 1 2; do
    shapes | while read -r t sh; do
        echo "== $t $sh TRANS=NN LAYOUT=row, $th thread(s): old, new, old copy"
        build/ab-gemm $t "$sh" 7 "$BASE@$th" "$NEW@$th" "$BASE2@$th"
        echo "== $t $sh TRANS=NN LAYOUT=row, $th thread(s): new, MKL"
        build/ab-gemm $t "$sh" 7 "$NEW@$th" "$MKL@$th"
    done
done
shapes | while read -r t sh; do
    echo "== AVX2 $t $sh TRANS=NN LAYOUT=row, 1 thread: old, new, old copy"
    TGEMM_ARCH=avx2 build/ab-gemm $t "$sh" 7 "$BASE@1" "$NEW@1" "$BASE2@1"
done
