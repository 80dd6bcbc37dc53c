#!/bin/sh
# The sweep behind the rule as it stands, over 17ec388's tiles (b97fdcc's registers and
# 17ec388's dropped prefetch made the tiles of one to three rows faster again after sweep2): the
# rows form forced against the small path's tiles forced, r = 2 and 3 rows, row-major NN, 1
# thread, side by side in one process. SMALL and ROWS are 17ec388 built with a hook as the first
# line of tg__gemv_rows_max's body after its declarations (not in the library),
#     SMALL: if (getenv("TGX_R")) return atoi(getenv("TGX_R"));   run with TGX_R=1
#     ROWS:  if (getenv("TGY_R")) return atoi(getenv("TGY_R"));   run with TGY_R=4
# (both builds also carried an experiment that ran only under another variable, unset here).
# The rate is ROWS over SMALL. Then a few shapes at 2 threads, and the small path at 1 thread
# over itself at 2.
# usage: SMALL=... ROWS=... sh sweep3.sh > sweep3.log
for t in s d; do
    for r in 2 3; do
        for n in 48 64 96 128 200 256 512 1024; do
            for k in 32 64 128 256 512; do
                echo "== $t ${r}x${n}x${k}"
                TGX_R=1 TGY_R=4 build/ab-gemm $t ${r}x${n}x${k} 5 "$SMALL@1" "$ROWS@1"
            done
        done
    done
done
for sh in s:3x256x256 d:3x256x256 s:3x200x200 s:3x512x128 s:3x1000x100 d:3x128x512 s:3x1024x512 \
          s:2x256x256 d:2x128x256; do
    echo "== ${sh%%:*} ${sh#*:} 2 threads: small, rows, small on 1 thread"
    TGX_R=1 TGY_R=4 build/ab-gemm ${sh%%:*} ${sh#*:} 7 "$SMALL@2" "$ROWS@2" "$SMALL@1"
done
