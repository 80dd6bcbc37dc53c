#!/bin/sh
# `make bench`: the whole job on a fresh machine, in order:
#   1. Debian packages: the build needs libbenchmark-dev, the report python3-matplotlib and
#      python3-numpy (for /usr/bin/python3); OpenBLAS, BLIS and libxsmm are optional vendors.
#      Missing ones are installed when this runs as root with apt-get; otherwise one line names
#      the command that installs them. A missing optional vendor never stops the run (the sweep
#      reports it absent); MKL comes from PyPI's `mkl` wheel, not from apt.
#   2. make lib harness.
#   3. The ceilings, measured once per machine: results/<slug>/ceilings.json is kept when it
#      exists (`make ceilings` measures again).
#   4. The sweep (about ten minutes on a 2-core machine with the defaults of harness/report.mk),
#      its progress also logged to results/<slug>/sweep.log.
#   5. The report, written beside them. It is written even when a check failed, so the failure can
#      be read there; the exit status is then the sweep's (1).
# usage: sh harness/bench.sh MAKE BUILD    (variables: see harness/report.mk)
MAKE=${1:-make}
B=${2:-build}
PY=${REPORT_PY:-/usr/bin/python3}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing() { for p in "$@"; do installed "$p" || printf '%s ' "$p"; done; }

if command -v dpkg-query > /dev/null; then
    need=$(missing libbenchmark-dev python3-matplotlib python3-numpy)
    want=$(missing libopenblas-dev libblis-dev libxsmm-dev)
    if [ -n "$need$want" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
            echo "bench: installing $need$want"
            apt-get install -y $need $want > /dev/null 2>&1 ||
                { apt-get update > /dev/null 2>&1 && apt-get install -y $need $want > /dev/null 2>&1; } ||
                for p in $want; do apt-get install -y "$p" > /dev/null 2>&1; done
            need=$(missing $need)
            want=$(missing $want)
        fi
        [ -n "$need$want" ] && echo "bench: missing packages; install them with: sudo apt-get install -y $need$want"
        if [ -n "$need" ]; then
            echo "bench: cannot go on without $need"
            exit 1
        fi
    fi
else
    echo "bench: not a Debian system; needs Google Benchmark, and matplotlib and numpy for $PY"
fi

$MAKE --no-print-directory lib harness || exit 1
slug=$("$B/tgemm-bench" machine --slug) || exit 1
R=results/$slug
mkdir -p "$R" || exit 1

if [ -f "$R/ceilings.json" ]; then
    echo "bench: ceilings kept from $R/ceilings.json (make ceilings measures them again)"
else
    "$B/tgemm-bench" ceilings --out "$R/ceilings.json" || exit 1
fi

echo "bench: sweep of $BENCH_SIZES, $BENCH_DTYPES, threads $BENCH_THREADS, $BENCH_IMPLS -> $R/sweep.json"
rcfile=$(mktemp)
trap 'rm -f "$rcfile"' EXIT
# BENCH_ARGS is split into words on purpose: it holds extra options.
{ "$B/tgemm-bench" --impl "$BENCH_IMPLS" --dtype "$BENCH_DTYPES" --sizes "$BENCH_SIZES" \
      --threads "$BENCH_THREADS" --ceilings "$R/ceilings.json" $BENCH_ARGS \
      --out "$R/sweep.json" 2>&1; echo $? > "$rcfile"; } | tee "$R/sweep.log"
rc=$(cat "$rcfile")
if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
    echo "bench: the sweep stopped (exit $rc); see $R/sweep.log"
    exit "$rc"
fi
"$PY" harness/report.py --results "$R" --sweep "$R/sweep.json" || exit 1
[ "$rc" = 1 ] && echo "bench: some results were WRONG; see the correctness section of $R/report.md"
exit "$rc"
