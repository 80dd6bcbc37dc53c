#!/bin/sh
# B's vectors pinned in registers in the micro-kernel's loop for tiles of one to three rows
# (cpu/kernel_simd.inc's TG__SPLIT3, TG__IN_REG) against the build before, side by side in one
# process, a second copy of the old build as the control; then the new build beside MKL in a
# process of their own. Shapes with a last row tile of one to three rows (a C of 1-3 rows that the
# rows form does not take, 13 = 12 + 1 rows, 9 = 6 + 3, 100 = 16 x 6 + 4 ... ) and controls.
# The last lines with the AVX2 family forced (against the old build only).
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for sh in "d 3x48x128" "s 3x96x64" "s 3x48x256" "d 2x32x100" "s 2x48x128" "d 3x40x300" \
              "s 13x512x512" "d 13x256x256" "s 9x128x128" "d 9x64x64" "s 3x33x100" "d 1x24x500" \
              "s 14x64x64" "d 16x768x768" "s 64x64x64" "s 2048x2048x2048"; do
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
