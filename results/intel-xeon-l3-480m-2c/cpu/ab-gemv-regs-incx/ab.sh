#!/bin/bash
# usage: ab.sh NEW "shapes" "transposes" [types]  -> new/base ratio, copy/base ratio
NEW=$1; SH=$2; TR=$3; TY=${4:-"s d"}
for p in $TY; do for t in $TR; do for s in $SH; do
 env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t env ${ENVX} /work/main/build/ab-gemm $p $s 3 /tmp/y/base.so@1 $NEW@1 /tmp/y/base_copy.so@1 | awk -v t=$t '/rate/{r=$0; sub(/.*: /,"",r); sub(/ \(lines/,"",r); sub(/\)/,"",r); rr=rr" | "r} /^[sd] /{h=$1" "$2} END{print h, t, rr}'
done; done; done
