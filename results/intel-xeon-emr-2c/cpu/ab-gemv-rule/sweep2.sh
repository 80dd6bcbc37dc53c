#!/bin/sh
# The sweep behind the rule as it stands (gemv_two), run after the tiles of one to three rows were
# fixed (b97fdcc; sweep.sh's small path was the slower one): the rows form forced against the
# small path's tiles forced, r = 2, 3, 4 rows, row-major NN, 1 thread, side by side in one
# process. SMALL and ROWS are b97fdcc built with a hook as the first line of tg__gemv_rows_max
# (not in the library),
#     SMALL: if (getenv("TGX_R")) return atoi(getenv("TGX_R"));   run with TGX_R=1
#     ROWS:  if (getenv("TGY_R")) return atoi(getenv("TGY_R"));   run with TGY_R=4
# so both pay the same getenv. The rate is ROWS over SMALL.
# usage: SMALL=... ROWS=... sh sweep2.sh > sweep2.log
for t in s d; do
    for r in 2 3 4; do
        for n in 48 64 96 128 200 256 512 1024; do
            for k in 32 64 128 256 512; do
                echo "== $t ${r}x${n}x${k}"
                TGX_R=1 TGY_R=4 build/ab-gemm $t ${r}x${n}x${k} 5 "$SMALL@1" "$ROWS@1"
            done
        done
    done
done
