#!/bin/bash
# usage: alt.sh OUTDIR reps ops dtype variants...
out=$1; reps=$2; ops=$3; dt=$4; shift 4
mkdir -p $out
for r in $(seq $reps); do for v in "$@"; do
  flock /tmp/bench.lock /tmp/$v/build/tgemm-bench --op $ops --dtype $dt --sizes 2^27 --threads 2 --impl tgemm --rounds 3 --out $out/$v.$r.json > /dev/null 2>&1
done; done
echo finished > $out/done
