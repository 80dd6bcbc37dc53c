#!/bin/bash
# usage: alt.sh OUTDIR reps ops dtype threads impl variants...
out=$1; reps=$2; ops=$3; dt=$4; th=$5; impl=$6; shift 6
mkdir -p $out
for r in $(seq $reps); do for v in "$@"; do
  /tmp/V/$v/build/tgemm-bench --op $ops --dtype $dt --sizes 2^27 --threads $th --impl $impl --rounds 3 --out $out/$v.$r.json > /dev/null 2>&1
done; done
