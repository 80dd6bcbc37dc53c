#!/bin/sh
# Lent-GPU call of 2026-11-29 (H200), the second: the elementwise kernels' activations with the limit
# as a select after the formula and the division without the IEEE one's slow path (new, the working
# tree on f6ec62f) against f162e6a (old), both built on the developer's machine (sm_90 machine code;
# old with every target) and carried gzipped in ab/. The new build's GPU tests (every fp16/bf16 value,
# past 2^31 elements), memcheck and racecheck, then the bandwidth benchmark old/new alternately,
# three rounds at 512 MiB and two at 256 MiB.
# Sent as: OUT=$OUT sh ab_call.sh
OUT=${OUT:?}
t0=$(date +%s); el() { echo $(($(date +%s)-t0)); }
L=/tmp/ablogs; mkdir -p $L
for v in old new; do
    mkdir -p /tmp/ab/$v
    for b in bench test; do gzip -dc ab/$v/${b}_cuda_elementwise.gz > /tmp/ab/$v/$b && chmod +x /tmp/ab/$v/$b; done
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $L/machine.txt 2>&1
timeout 60 /tmp/ab/new/test > $L/test_new.log 2>&1; tail -n 6 $L/test_new.log
timeout 30 /tmp/ab/new/test --large > $L/test_new_large.log 2>&1; tail -n 1 $L/test_new_large.log
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
    timeout 40 $san --tool $tool --error-exitcode 3 /tmp/ab/new/test --tiny > $L/sanitizer_${tool}_new.log 2>&1
    echo "$tool: $(grep -E 'ERROR SUMMARY|passed, [0-9]+ failed' $L/sanitizer_${tool}_new.log | tr '\n' ' ')"
done
echo "[$(el) s] tests"
tar czf $OUT/ab.tar.gz -C /tmp ablogs
for r in 1 2 3; do for v in old new; do
    [ $(el) -lt 150 ] && timeout 30 /tmp/ab/$v/bench 512 > $L/bench512_${v}_$r.log 2>&1
done; done
echo "[$(el) s] bench 512"
for r in 1 2; do for v in old new; do
    [ $(el) -lt 165 ] && timeout 25 /tmp/ab/$v/bench 256 > $L/bench256_${v}_$r.log 2>&1
done; done
echo "[$(el) s] bench 256"
tar czf $OUT/ab.tar.gz -C /tmp ablogs
# The table: each case's ratio to the copy, old's rounds then new's, at 512 MiB.
for f in $L/bench512_*; do grep -o '^[a-z_].*ratio *[0-9.]*%' $f | sed 's/ *[0-9.]* GB\/s.*ratio */|/; s/ *|/|/' | sed "s#^#$(basename $f .log)|#"; done |
    awk -F'|' '{split($1,a,"_"); k=$2; v[k]=v[k] " " a[2] substr(a[3],1,1) "=" $3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] ":" v[key[i]]}'
echo "[$(el) s] end"
