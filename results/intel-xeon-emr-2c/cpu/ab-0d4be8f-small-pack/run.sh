#!/bin/sh
# The small path's two packing changes (7835dd6, cf6c1f8) against the build before them (0d4be8f),
# side by side in one process with MKL as the yardstick and a second copy of the old build as the
# control. BASE, BASE2 (a copy of BASE), NEW: the three libtgemm.so builds; MKL: libmkl_rt.so.
# usage: BASE=... BASE2=... NEW=... MKL=... sh run.sh > ab.log
for t in 1 2; do
    for sh in "s 16x768x768" "d 16x768x768" "s 24x768x256" "d 20x512x512" "s 16x128x128" \
              "d 16x256x256" "s 24x2048x2048" "s 16x64x256" "d 16x64x64" "s 16x4096x4096" \
              "d 96x96x96" "d 200x96x96" "s 64x192x96" "s 96x64x96" "s 64x256x256" "s 12x768x768"; do
        THREADS=$t MKL_NUM_THREADS=$t build/ab-gemm $sh 5 "$BASE" "$NEW" "$BASE2" "$MKL"
    done
done
