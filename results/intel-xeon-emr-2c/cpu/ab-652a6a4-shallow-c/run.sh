#!/bin/sh
# Shallow products with a large C (652a6a4: the blocked path where k < 64 and C is past half of L2,
# instead of the small path) against the build before it (cd8073f), side by side in one process,
# a second copy of the old build as the control and MKL as the yardstick, on the line's threads.
# BASE, BASE2 (a copy of BASE), NEW: libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
for t in 1 2; do
    for sh in "s 4096x4096x1" "d 4096x4096x1" "s 1000x1000x4" "d 1000x1000x4" "s 724x724x16" \
              "d 724x724x16" "d 512x512x4" "d 512x512x16" "s 2048x300x24" "d 2048x300x24" \
              "s 300x2048x24" "d 300x2048x24" "s 900x900x20" "s 800x800x26" "s 600x600x32" \
              "s 600x600x46" "d 600x600x46" "s 700x700x40"; do
        THREADS=$t build/ab-gemm $sh 5 "$BASE@$t" "$NEW@$t" "$BASE2@$t" "$MKL@$t"
    done
done
# unchanged by the rule (C within half of L2, or k >= 64): the control shapes
for sh in "s 512x512x16" "d 256x256x16" "d 450x450x80" "s 400x400x100"; do
    build/ab-gemm $sh 5 "$BASE@1" "$NEW@1" "$BASE2@1" "$MKL@1"
done
