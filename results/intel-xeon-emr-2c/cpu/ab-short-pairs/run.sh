#!/bin/sh
# AVX-512: a short A of one to four rows with B in place takes its whole column panels two at a
# time through the pair kernel (cpu/small.c's tg__small_pairs, B's vectors pinned in registers),
# and no C of two rows goes to the GEMV rows form within L2 any more (cpu/gemv.c), against the
# build before (be7a70a), side by side in one process, a second copy of the old build as the
# control; then the new build beside MKL in a process of their own. The last lines with the AVX2
# family forced (no pair kernel, the old rule: controls).
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
shapes() {
    for sh in "s 4x256x256" "d 4x256x256" "s 4x512x512" "s 4x1024x256" "d 4x128x512" "s 3x256x256" \
              "d 3x256x256" "s 3x1000x100" "s 3x200x200" "d 3x64x512" "s 2x128x128" "d 2x64x64" \
              "s 2x256x256" "d 2x128x256" "s 2x1024x128" "s 2x256x512" \
              "s 4x128x128" "s 3x96x64" "d 3x48x128" "s 4x4096x4096" "d 4x2048x2048" "s 5x256x256" \
              "s 16x768x768" "s 64x64x64"; do
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
