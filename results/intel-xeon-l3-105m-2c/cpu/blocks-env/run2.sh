#!/bin/bash
# As run.sh, over the other blocked-path shapes of the table, 1 thread.
# usage: sh results/intel-xeon-l3-105m-2c/cpu/blocks-env/run2.sh > .../blocks-env/runs2.txt
cd /work/main
OB=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
run() { # type shape lines config...
  p=$1; s=$2; l=$3; shift 3
  r=$(env "$@" OPENBLAS_NUM_THREADS=1 C_OFFSET=16 TRANS=NN build/ab-gemm $p $s $l $OB@1 build/libtgemm.so@1 | grep "rate /" | sed 's/.*: //')
  echo "$p $s threads 1 [$*]: $r"
}
for p in d s; do for s in 777x1555x333 4096x64x4096 1001x1001x1001 4096x4096x32; do
  for cfg in "X=default" "TGEMM_MC=48" "TGEMM_MC=48 TGEMM_KC=1024"; do run $p $s 3 $cfg; done
done; done
