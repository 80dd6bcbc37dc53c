#!/bin/bash
# tgemm / OpenBLAS at the large squares under block sizes set through the environment
# (cpu/blocking.c's TGEMM_MC / TGEMM_KC overrides), each configuration in its own ab-gemm run.
# usage: sh results/intel-xeon-l3-105m-2c/cpu/blocks-env/run.sh > .../blocks-env/runs.txt
cd /work/main
OB=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
run() { # type shape threads lines config...
  p=$1; s=$2; t=$3; l=$4; shift 4
  r=$(env "$@" OPENBLAS_NUM_THREADS=$t C_OFFSET=16 TRANS=NN build/ab-gemm $p $s $l $OB@$t build/libtgemm.so@$t | grep "rate /" | sed 's/.*: //')
  echo "$p $s threads $t [$*]: $r"
}
for t in 1 2; do
  for cfg in "X=default" "TGEMM_MC=96" "TGEMM_MC=48 TGEMM_KC=1024"; do run d 2048x2048x2048 $t 3 $cfg; done
  for cfg in "X=default" "TGEMM_MC=96" "TGEMM_MC=48"; do run s 2048x2048x2048 $t 3 $cfg; done
done
for cfg in "X=default" "TGEMM_MC=96" "TGEMM_MC=48 TGEMM_KC=1024"; do run d 4000x4000x4000 1 2 $cfg; done
for cfg in "X=default" "TGEMM_MC=96" "TGEMM_MC=48"; do run s 4000x4000x4000 1 2 $cfg; done
for cfg in "X=default" "TGEMM_MC=48 TGEMM_KC=1024"; do run d 1000x1000x1000 1 3 $cfg; done
