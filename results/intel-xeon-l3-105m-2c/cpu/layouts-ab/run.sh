#!/bin/sh
# tgemm's seven other layouts and transposes against its own row-major NN, side by side in one
# process (ab-gemm's LIB:FORM), 1 thread, C 16 bytes off a line; one line per type and size:
# the rate of each form over row NN's, the mean of LINES lines (lowest-highest in the log).
# usage: sh run.sh [LIB] [LINES] [SIZES]   (from the repository root)
LIB=${1:-build/libtgemm.so}
LINES=${2:-3}
SIZES=${3:-"16 64 256 1000 2048"}
for p in s d; do for s in $SIZES; do
    env C_OFFSET=16 build/ab-gemm $p $s $LINES $LIB@1 $LIB@1:NT $LIB@1:TN $LIB@1:TT \
        $LIB@1:colNN $LIB@1:colNT $LIB@1:colTN $LIB@1:colTT |
        awk -v p=$p -v s=$s 'NR == 2 {g = $2} /rate/ {f = $1; sub(/.*:/, "", f); r = $0;
            sub(/.*: /, "", r); sub(/ \(lines /, " ", r); sub(/\)/, "", r); split(r, x, " ");
            out = out sprintf(" %s %s (%s)", f, x[1], x[2])}
            END {printf "%s %s rowNN %s GFLOP/s:%s\n", p, s, g, out}'
done; done
