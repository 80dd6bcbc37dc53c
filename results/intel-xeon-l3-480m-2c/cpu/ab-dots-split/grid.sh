#!/bin/bash
# grid for the split dots: NEW lib, types, transposes
NEW=$1
for t in s d; do
 if [ $t = s ]; then NS="18 19 20 34 35 36 66 68"; else NS="10 11 12 18 19 20 34 36"; fi
 SH=""; for m in 8 16 40 100; do for k in 8 16 32 64 100 200; do for n in $NS; do SH="$SH ${m}x${n}x${k}"; done; done; done
 $(dirname $0)/ab.sh $NEW "$SH" "NN NT" $t
done
