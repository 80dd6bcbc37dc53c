#!/bin/bash
# usage: ab12.sh A B "shapes" "transposes" [types]  -> B/A ratio, copy(A)/A
A=$1; NEW=$2; SH=$3; TR=$4; TY=${5:-"s d"}
cp $A /tmp/z/Acopy.so
for p in $TY; do for t in $TR; do for s in $SH; do
 env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t /work/main/build/ab-gemm $p $s 3 $A@1 $NEW@1 /tmp/z/Acopy.so@1 | awk -v t=$t '/rate/{r=$0; sub(/.*: /,"",r); sub(/ \(lines/,"",r); sub(/\)/,"",r); rr=rr" | "r} /^[sd] /{h=$1" "$2} END{print h, t, rr}'
done; done; done
