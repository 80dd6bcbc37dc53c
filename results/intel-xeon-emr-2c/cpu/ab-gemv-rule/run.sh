#!/bin/sh
# The AVX-512 rule as it stands (two rows to the rows form over rows of 1 KiB or more, three only
# beyond L2) against the build before it (17ec388, which took two and three rows of 384 bytes or
# more there within L2), side by side in one process, a second copy of the old build as the
# control; then against c9dc155 (before this session's short-C changes and the tiles' fixes), to
# show where the session leaves each shape; then the new build beside MKL in a process of their
# own. Each on the line's threads; the last lines with the AVX2 family
# forced (its rule did not change: controls).
# BASE (17ec388), BASE2 (a copy of BASE), ORIG (c9dc155), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... ORIG=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for sh in "s 3x200x200 NN row" "s 3x256x256 NN row" "s 3x100x512 NN row" "d 3x256x256 NN row" \
              "d 3x256x256 TN row" "d 3x64x512 NN row" "s 256x3x256 NN col" "s 2x100x100 NN row" \
              "d 2x100x20 NN row" "d 2x48x300 NN row" "d 2x64x64 NN row" "s 2x64x256 NN row" \
              "s 2x48x512 NN row" "s 2x128x128 NN row" "s 2x512x64 NN row" "d 2x256x32 NN row" \
              "s 3x1000x100 NN row" "s 3x512x128 NN row" "d 2x128x256 NN row" \
              "s 4x256x256 NN row" "s 3x4096x4096 NN row" "s 2x4096x4096 NN row"; do
        echo "$sh"
    done
}
for th in 1 2; do
    shapes | while read -r t sh tr layout; do
        echo "== $t $sh TRANS=$tr LAYOUT=$layout, $th thread(s): old, new, old copy"
        TRANS=$tr LAYOUT=$layout build/ab-gemm $t "$sh" 7 "$BASE@$th" "$NEW@$th" "$BASE2@$th"
        echo "== $t $sh TRANS=$tr LAYOUT=$layout, $th thread(s): new, MKL"
        TRANS=$tr LAYOUT=$layout build/ab-gemm $t "$sh" 7 "$NEW@$th" "$MKL@$th"
    done
done
shapes | while read -r t sh tr layout; do
    echo "== ORIG $t $sh TRANS=$tr LAYOUT=$layout, 1 thread: c9dc155, new"
    TRANS=$tr LAYOUT=$layout build/ab-gemm $t "$sh" 7 "$ORIG@1" "$NEW@1"
done
shapes | while read -r t sh tr layout; do
    echo "== AVX2 $t $sh TRANS=$tr LAYOUT=$layout, 1 thread: old, new, old copy"
    TGEMM_ARCH=avx2 TRANS=$tr LAYOUT=$layout build/ab-gemm $t "$sh" 7 "$BASE@1" "$NEW@1" "$BASE2@1"
done
