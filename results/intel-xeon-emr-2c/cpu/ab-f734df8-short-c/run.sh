#!/bin/sh
# A C of two to four rows or columns, which f734df8 runs as the matrix-vector product's rows form
# over several rows of y (cpu/gemv.c), against the build before it (adf779c, where they took the
# small path's tiles), side by side in one process, a second copy of the old build as the control;
# then the new build beside MKL, the yardstick, in a process of their own (MKL's threads and
# tgemm's, spinning after a parallel region, share the two cores). Each on the line's threads;
# the last lines with the AVX2 family forced (against the old build only: MKL runs AVX-512).
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for t in s d; do
        for sh in "NN 2x1000x1000" "NN 2x4096x4096" "TN 2x4096x4096" "NN 3x2000x2000" \
                  "NN 4x4096x4096" "NN 2x128x128" "NN 2x512x512" "NN 4x2048x512" \
                  "NN 4x64x20000" "NN 2x40x20000"; do
            echo "$t ${sh#* } ${sh% *} row"
        done
        echo "$t 1000x2x1000 NN col"
        echo "$t 4096x4x4096 NN col"
    done
}
for th in 1 2; do
    shapes | while read -r t sh tr layout; do
        echo "== $t $sh TRANS=$tr LAYOUT=$layout, $th thread(s): old, new, old copy"
        TRANS=$tr LAYOUT=$layout build/ab-gemm $t "$sh" 5 "$BASE@$th" "$NEW@$th" "$BASE2@$th"
        echo "== $t $sh TRANS=$tr LAYOUT=$layout, $th thread(s): new, MKL"
        TRANS=$tr LAYOUT=$layout build/ab-gemm $t "$sh" 5 "$NEW@$th" "$MKL@$th"
    done
done
shapes | while read -r t sh tr layout; do
    echo "== AVX2 $t $sh TRANS=$tr LAYOUT=$layout, 1 thread: old, new, old copy"
    TGEMM_ARCH=avx2 TRANS=$tr LAYOUT=$layout build/ab-gemm $t "$sh" 5 "$BASE@1" "$NEW@1" "$BASE2@1"
done
