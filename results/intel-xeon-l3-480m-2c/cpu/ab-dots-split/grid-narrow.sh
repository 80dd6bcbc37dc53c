#!/bin/bash
# grid for whole products 2-4 columns wide over A's rows: NEW lib
NEW=$1
SH=""; for m in 9 16 40 100 300 1000; do for k in 8 16 32 100 300 1000; do for n in 2 3 4; do SH="$SH ${m}x${n}x${k}"; done; done; done
$(dirname $0)/ab.sh $NEW "$SH" "NN NT" "s d"
