#!/bin/sh
# AVX-512's triples of panels (cpu/small.c's tg__small_triples: tiles of eight rows by 3W) for a
# short A of 7-8, 13-16 or 19-24 rows, against the build before (c1fc3ba), side by side in one
# process, a second copy of the old build as the control; then the new build beside MKL in a
# process of their own. The last lines with the AVX2 family forced (no triple kernel: controls).
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for sh in "s 7x256x256" "d 7x256x256" "s 8x512x256" "d 8x512x256" "s 7x1000x100" \
              "d 7x1000x100" "s 8x1024x1024" "d 8x1024x1024" "s 7x2048x2048" "s 13x512x512" \
              "d 13x512x512" "s 14x256x256" "d 14x256x256" "s 16x768x768" "d 16x240x256" \
              "s 21x256x256" "d 20x1000x100" "s 24x768x768" "d 7x2048x2048" "d 16x768x768" \
              "s 12x256x256" "s 8x64x64" "s 64x64x64"; do
        echo "$sh"
    done
}
for th in 1 2; do
    shapes | while read -r t sh; do
        echo "== $t $sh TRANS=NN LAYOUT=row, $th thread(s): old, new, old copy"
        build/ab-gemm $t "$sh" 5 "$BASE@$th" "$NEW@$th" "$BASE2@$th"
        echo "== $t $sh TRANS=NN LAYOUT=row, $th thread(s): new, MKL"
        build/ab-gemm $t "$sh" 5 "$NEW@$th" "$MKL@$th"
    done
done
shapes | while read -r t sh; do
    echo "== AVX2 $t $sh TRANS=NN LAYOUT=row, 1 thread: old, new, old copy"
    TGEMM_ARCH=avx2 build/ab-gemm $t "$sh" 5 "$BASE@1" "$NEW@1" "$BASE2@1"
done
