#!/bin/sh
# The session's net at 2 threads on the short C's of three rows (and one of two): c9dc155 against
# the rule as it stands, side by side in one process.
# usage: ORIG=<c9dc155 libtgemm.so> NEW=... sh orig2.sh > orig2.log
for sh in "s 3x200x200" "s 3x256x256" "d 3x256x256" "s 3x512x128" "s 3x100x512" "d 3x64x512" \
          "s 3x1000x100" "s 2x100x100"; do
    set -- $sh
    echo "== $1 $2 2 threads: c9dc155, new"
    build/ab-gemm $1 $2 7 "$ORIG@2" "$NEW@2"
done
