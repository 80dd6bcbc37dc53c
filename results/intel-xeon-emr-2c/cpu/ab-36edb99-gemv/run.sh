#!/bin/sh
# Products with one row or one column of C, which 8f5160a, 70f60e5 and 36edb99 run as a matrix-vector
# product (cpu/gemv.c), against the build before them (f2b72c2), side by side in one process, a
# second copy of the old build as the control; then the new build beside MKL, the yardstick, in a
# process of their own (MKL's threads and tgemm's, spinning after a parallel region, share the two
# cores: kept apart from the tgemm-only comparison). Each on the line's threads.
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for t in s d; do
        for sh in "NN 1x4096x4096" "TN 1x4096x4096" "NT 1x4096x4096" "NN 4096x1x4096" \
                  "TN 4096x1x4096" "NN 1x1000x1000" "TN 1000x1x1000" "NN 1x256x256" \
                  "NN 256x1x256" "NN 1x8x100000" "NN 8x1x100000" "NN 1x64x20000" \
                  "NN 1x1x1000000" "NN 1x400x400" "NN 400x1x400"; do
            echo "$t ${sh#* } ${sh% *} row"
        done
        echo "$t 1x4096x4096 NN col"
        echo "$t 4096x1x4096 NN col"
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
