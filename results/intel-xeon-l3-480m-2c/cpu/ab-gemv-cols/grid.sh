#!/bin/bash
# column products over all of C's rows at once (gemv_cols, new) against base (nr rows a call)
# one line a run: type shape trans new/base copy/base
cd /work/main
for p in s d; do
  if [ $p = s ]; then ns="17 18 33 34 65 66"; else ns="9 10 17 18 33 34"; fi
  for t in TN TT; do for m in 8 34 100; do for n in $ns; do for k in 24 100; do
    env OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=$t build/ab-gemm $p ${m}x${n}x${k} 3 /tmp/y/base.so@1 /tmp/y/c4.so@1 /tmp/y/base_copy.so@1 | awk -v t=$t '/^[sd] /{h=$1" "$2} /rate/{r=$0; sub(/.*: /,"",r); sub(/ \(lines.*/,"",r); v[++i]=r} END{print h, t, v[1], v[2]}'
  done; done; done; done
done
