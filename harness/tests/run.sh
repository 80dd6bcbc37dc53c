#!/bin/sh
# The harness's tests (make test-harness): the checker's own tests, option parsing and every kind of
# bad input, a tiny sweep end to end whose JSON is read back and checked field by field, a planted
# wrong implementation that the sweep must catch and fail on, the FMA peak as a reference line, a
# crashing one it must survive, and tgemm-gbench's filter. Ends with "N passed, N failed".
# The JSON is checked with Debian's /usr/bin/python3 (its standard library only): the python3 first
# on the PATH may be another interpreter, and this needs nothing beyond json.
# usage: sh harness/tests/run.sh BUILD_DIR
B=${1:-build}
BENCH=$B/tgemm-bench
. "$(dirname "$0")/lib.sh"

# ---- the checker catches what it claims to (C test) ----
"$B/harness/check_test" > "$T/check.out"
rc=$?
cat "$T/check.out"
p=$(sed -n 's/^check: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$T/check.out")
f=$(sed -n 's/^check: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$T/check.out")
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
[ "$rc" != 0 ] && [ "${f:-1}" = 0 ] && bad "check_test exited $rc"

# ---- bad input: exit 2, one line on stderr naming the problem, nothing else done ----
usage_error() { # pattern args...
    pattern=$1
    shift
    "$BENCH" "$@" > "$T/o" 2> "$T/e"
    rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l < "$T/e")" = 1 ] && [ ! -s "$T/o" ] && grep -q -- "$pattern" "$T/e"
    then ok "bad input rejected: $* -> $(cat "$T/e")"
    else bad "bad input: $* (exit $rc, stderr: $(cat "$T/e"), stdout: $(head -c 200 "$T/o"))"
    fi
}
usage_error "unknown implementation 'foo'" --impl tgemm,foo
usage_error "unknown implementation 'planted'" --impl planted
usage_error "empty item" --impl tgemm,,openblas
usage_error "malformed size '64:abc'" --sizes 64:abc
usage_error "malformed size '0'" --sizes 0
usage_error "malformed size '128:64:8'" --sizes 128:64:8
usage_error "malformed size '64:128:x1'" --sizes 64:128:x1
usage_error "malformed size '10x20'" --sizes 10x20
usage_error "malformed size '10x0x5'" --sizes 10x0x5
usage_error "malformed size 'squares'" --sizes squares
usage_error "'0' is not a thread count" --threads 1,0
usage_error "'-2' is not a thread count" --threads -2
usage_error "'two' is not a thread count" --threads two
usage_error "unknown dtype 'z'" --dtype z
usage_error "unknown transpose pair 'NX'" --trans NX
usage_error "unknown layout 'diag'" --layout diag
usage_error "--rounds: '0'" --rounds 0
usage_error "--min-time: '0'" --min-time 0
usage_error "--repetitions: '1.5'" --repetitions 1.5
usage_error "unknown option '--bogus'" --bogus 1
usage_error "unexpected argument 'extra'" extra
usage_error "--impl needs a value" --impl
usage_error "cannot create '$T/missing/x.json'" --out "$T/missing/x.json"
usage_error "cannot read" --ceilings "$T/missing.json"
usage_error "only option is --slug" machine --bogus
[ ! -e "$T/missing" ]
check $? "an unwritable --out creates nothing"

# ---- option parsing: sizes, families and the case plan (--list runs nothing) ----
list() { "$BENCH" --dtype s --threads 1 "$@" --list 2> "$T/e"; }
[ "$(list --sizes 64:256:64 | cut -d/ -f4 | tr '\n' ' ')" = "64x64x64 128x128x128 192x192x192 256x256x256 " ]
check $? "lo:hi:step includes hi when a step lands on it"
[ "$(list --sizes 64:300:64 | cut -d/ -f4 | tr '\n' ' ')" = "64x64x64 128x128x128 192x192x192 256x256x256 " ]
check $? "lo:hi:step stops below hi otherwise"
[ "$(list --sizes=16:256:x2 | cut -d/ -f4 | tr '\n' ' ')" = "16x16x16 32x32x32 64x64x64 128x128x128 256x256x256 " ]
check $? "lo:hi:x2 is geometric (and --opt=value works)"
[ "$(list --sizes 1000x200x3000,7)" = "$(printf 's/row/NN/1000x200x3000/1 custom\ns/row/NN/7x7x7/1 square')" ]
check $? "MxNxK and N"
[ "$(list --sizes 64,128,64x64x64,square | wc -l)" = 9 ]
check $? "a shape listed twice is planned once"
for fam in square tall-skinny short-wide small-k large-k linear gemv; do
    n=$(list --sizes "$fam" | grep -c " $fam\$")
    all=$(list --sizes "$fam" | wc -l)
    [ "$n" -ge 4 ] && [ "$n" = "$all" ]
    check $? "family $fam: $n shapes, all labelled $fam"
done
list --sizes tall-skinny | awk -F'[/x ]' '{ if (!($4 >= 16 * $5)) exit 1 }'
check $? "tall-skinny has m >> n"
list --sizes short-wide | awk -F'[/x ]' '{ if (!($5 >= 16 * $4)) exit 1 }'
check $? "short-wide has n >> m"
list --sizes linear | grep -q "^s/row/NN/1024x3072x768/1 linear$" &&
    list --sizes linear | grep -q "^s/row/NN/128x11008x4096/1 linear$" &&
    list --sizes linear | grep -q "^s/row/NN/16x768x3072/1 linear$"
check $? "linear holds BERT/GPT-2 and 7B-class layers"
list --sizes gemv | awk -F'[/x ]' '{ if ($4 != 1 && $5 != 1) exit 1 }' &&
    list --sizes gemv | grep -q "^s/row/NN/1x11008x4096/1 gemv$"
check $? "gemv has m or n 1, and the 7B-class layer at one token"
[ "$("$BENCH" --dtype s,d --trans NN,TT --layout row,col --threads 1,2 --sizes 64 --list | wc -l)" = 16 ]
check $? "every combination of dtype, trans, layout and threads is planned"
[ "$("$BENCH" --threads all --sizes 64 --dtype s --list)" = "s/row/NN/64x64x64/$(nproc) square" ]
check $? "--threads all is every CPU ($(nproc))"
"$BENCH" --help > "$T/help"
rc=$?
for opt in --impl --dtype --sizes --trans --layout --threads --rounds --repetitions --min-time \
           --warmup --alpha --beta --batch --out --ceilings --list --help machine ceilings \
           tall-skinny short-wide small-k large-k linear gemv 64:4096:64 64:4096:x2 1000x200x3000; do
    grep -q -- "$opt" "$T/help" || { rc=1; echo "  --help does not mention $opt"; }
done
check $rc "--help documents every option, family and size form"
"$BENCH" machine > "$T/machine.json" && "$PY" - "$T/machine.json" "$("$BENCH" machine --slug)" << 'EOF'
import json, re, sys
m = json.load(open(sys.argv[1]))
for key in ("slug", "cpu_model", "cores", "caches", "compiler", "cflags", "commit", "date"):
    assert key in m, key
assert m["slug"] == sys.argv[2] and re.fullmatch(r"[a-z0-9-]+-\d+c", m["slug"]), m["slug"]
assert m["cores"] >= 1 and m["caches"]["l1d"] > 0
EOF
check $? "machine prints the JSON object and a slug"

# ---- a tiny sweep end to end ----
cat > "$T/ceilings.json" << 'EOF'
{"threads": [{"threads": 1, "peak_gflops": {"s": {"scalar": 5.0, "avx2": 200.0}, "d": {"avx2": 100.0}}},
             {"threads": 2, "peak_gflops": {"s": {"avx2": 400.0}, "d": {"avx2": 200.0}}}]}
EOF
"$BENCH" --impl tgemm,openblas,blis,mkl,libxsmm --dtype s,d --sizes 48,70x33x51,260x256x256 \
    --trans NN,TN --layout row,col --threads 1 --rounds 2 --min-time 0.002 --warmup 0 \
    --ceilings "$T/ceilings.json" --out "$T/sweep.json" 2> "$T/sweep.err"
rc=$?
[ "$rc" = 0 ] || cat "$T/sweep.err"
check $rc "tiny sweep exits 0"
grep -q '^\[[0-9]*/[0-9]*\] round 2/2 ' "$T/sweep.err"
check $? "progress lines on stderr (plain when not a terminal)"
"$PY" - "$T/sweep.json" << 'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
ctx, tg = d["context"], d["context"]["tgemm"]
for key in ("date", "num_cpus", "caches", "library_build_type"):     # Google Benchmark's own
    assert key in ctx, key
for key in ("slug", "cpu_model", "cores", "caches", "compiler", "cflags", "commit", "date",
            "command", "libraries", "failures"):
    assert key in tg, key
assert tg["failures"] == 0 and tg["errors"] == [], tg["errors"]
assert "--impl tgemm,openblas" in tg["command"]
libs = tg["libraries"]
assert set(libs) == {"tgemm", "openblas", "blis", "mkl", "libxsmm"}, libs
for name, lib in libs.items():
    assert lib["present"] in (True, False)
    assert ("path" in lib and "version" in lib) if lib["present"] else lib["reason"], (name, lib)
present = sorted(n for n, lib in libs.items() if lib["present"])
cases = {(dt, lay, tr, m, n, k) for dt in "sd" for lay in ("row", "col") for tr in ("NN", "TN")
         for (m, n, k) in ((48, 48, 48), (70, 33, 51), (260, 256, 256))}
peaks = {"s": 200.0, "d": 100.0}
seen = {}
times = {(b["run_name"], b["aggregate_name"]): b["real_time"] for b in d["benchmarks"]}
for b in d["benchmarks"]:
    name = "gemm/%s/%s/%s/%s/%dx%dx%d/threads:%d" % (b["impl"], b["dtype"], b["layout"], b["trans"],
                                                    b["m"], b["n"], b["k"], b["threads"])
    assert b["run_name"] == name and b["name"] == name + "_" + b["aggregate_name"], b["name"]
    assert b["run_type"] == "aggregate" and b["repetitions"] == 2 and b["time_unit"] == "ms"
    assert b["correct"] is True and 0 <= b["max_ratio"] < 16, b
    big = b["m"] * b["n"] * b["k"] > 1 << 24
    assert b["check"] == ("randomized" if big else "reference"), b
    assert b["family"] == ("square" if b["m"] == b["n"] == b["k"] else "custom")
    if b["aggregate_name"] == "median":
        assert b["real_time"] > 0 and b["cpu_time"] > 0 and b["GFLOPS"] > 0
        # Two samples: times mean -+ stddev/sqrt(2); the median GFLOP/s is between their rates.
        mean, sd = times[(name, "mean")], times[(name, "stddev")]
        flops = 2 * b["m"] * b["n"] * b["k"]
        lo, hi = flops / ((mean + sd / 2 ** 0.5) * 1e6), flops / ((mean - sd / 2 ** 0.5) * 1e6)
        assert lo * (1 - 1e-6) <= b["GFLOPS"] <= hi * (1 + 1e-6), (lo, b["GFLOPS"], hi)
        assert abs(times[(name, "cv")] - sd / mean) <= 1e-6 * max(sd / mean, 1e-9)
        assert abs(b["peak_pct"] - 100 * b["GFLOPS"] / peaks[b["dtype"]]) < 1e-6 * b["peak_pct"]
    seen.setdefault((b["impl"],) + (b["dtype"], b["layout"], b["trans"], b["m"], b["n"], b["k"]),
                    set()).add(b["aggregate_name"])
for impl in present:
    for c in cases:
        aggs = seen.get((impl,) + c)
        skipped = any(s.startswith("gemm/%s/" % impl) for s in tg["skipped"])
        assert aggs == {"median", "mean", "stddev", "cv"} or (impl == "libxsmm" and skipped), (impl, c, aggs)
assert "tgemm" in present
print("  sweep JSON: %d entries, implementations %s" % (len(d["benchmarks"]), ", ".join(present)))
EOF
check $? "the sweep's JSON is Google Benchmark's format with every case checked and timed"

# ---- a planted wrong implementation: one slightly wrong element in the last edge tile ----
TGEMM_BENCH_PLANTED=1 "$BENCH" --impl tgemm,planted --dtype s --sizes 64,260x256x256 --threads 1 \
    --rounds 1 --min-time 0.002 --warmup 0 --out "$T/planted.json" 2> "$T/planted.err"
rc=$?
[ "$rc" = 1 ]
check $? "a planted wrong element makes the sweep exit 1 (exit $rc)"
grep -q "^FAIL gemm/planted/s/row/NN/260x256x256/threads:1: C(259, 255): ratio" "$T/planted.err"
check $? "the failure is printed: $(grep FAIL "$T/planted.err")"
"$PY" - "$T/planted.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
tg = d["context"]["tgemm"]
assert tg["failures"] == 1 and len(tg["errors"]) == 1, tg["errors"]
res = {(b["impl"], b["m"]): b for b in d["benchmarks"] if b["aggregate_name"] == "median"}
assert res[("planted", 260)]["correct"] is False and res[("planted", 260)]["check"] == "randomized"
assert res[("planted", 260)]["max_ratio"] >= 16
assert res[("planted", 64)]["correct"] is True        # only the largest size is planted
assert res[("tgemm", 260)]["correct"] is True and res[("tgemm", 64)]["correct"] is True
EOF
check $? "the planted failure is recorded in the JSON, the real tgemm passes"

# ---- peak: the FMA probe timed as an implementation beside tgemm (a GEMM reference) ----
"$BENCH" worker peak --check scale/s/1000/1 > "$T/o" 2>&1
grep -q "^skip 0 " "$T/o"
check $? "worker peak refuses an elementwise case: $(head -n 1 "$T/o")"
"$BENCH" --impl tgemm,peak --dtype s,d --sizes 96,128x64x256 --threads 1,2 --rounds 2 \
    --min-time 0.002 --warmup 0 --ceilings "$T/ceilings.json" --out "$T/peak.json" 2> "$T/peak.err"
rc=$?
[ "$rc" = 0 ] || cat "$T/peak.err"
check $rc "a sweep with the peak reference exits 0"
"$PY" - "$T/peak.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
tg = d["context"]["tgemm"]
assert tg["failures"] == 0, tg["errors"]
lib = tg["libraries"]["peak"]
assert lib["present"] and lib["config"] == tg["libraries"]["tgemm"]["config"], lib
med = {(b["impl"], b["dtype"], b["m"], b["threads"]): b for b in d["benchmarks"]
       if b["aggregate_name"] == "median"}
for dt in "sd":
    for m in (96, 128):
        for t in (1, 2):
            p = med[("peak", dt, m, t)]
            assert p["check"] == "probe" and p["correct"] is True and p["GFLOPS"] > 0, p
            assert ("tgemm", dt, m, t) in med
print("  peak: %d cases beside tgemm's" % sum(k[0] == "peak" for k in med))
EOF
check $? "the peak runs every GEMM case beside tgemm, unchecked (check: probe), tgemm's config"
if "$PY" -c 'import matplotlib' 2> /dev/null; then
    "$PY" harness/report.py --sweep "$T/peak.json" --ceilings "$T/ceilings.json" --out "$T/peak" \
        > "$T/peak-report.log" 2>&1 &&
        grep -q '| tgemm / peak |' "$T/peak/report.md" &&
        grep -q 'peak computes no product' "$T/peak/report.md" &&
        ! grep -qE '^\| peak \| [0-9]+ \| [0-9]+ \| ' "$T/peak/report.md"
    check $? "the report gives tgemm / peak and leaves the peak out of the correctness table"
else
    skip "the report of a sweep with the peak (no matplotlib)" 1
fi

# ---- a worker that dies fails its unfinished cases; the sweep goes on and says so ----
TGEMM_BENCH_PLANTED=crash "$BENCH" --impl planted,tgemm --dtype s --sizes 40,64,50 --threads 1 \
    --rounds 2 --batch 8 --min-time 0.002 --warmup 0 --out "$T/crash.json" 2> "$T/crash.err"
rc=$?
[ "$rc" = 1 ] && grep -q "^FAIL gemm/planted/s/row/NN/64x64x64/threads:1: its worker was killed by signal 6" "$T/crash.err"
check $? "a crashing implementation fails its case (exit $rc: $(grep FAIL "$T/crash.err" | head -n 2 | tr '\n' ' '))"
"$PY" - "$T/crash.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
tg = d["context"]["tgemm"]
errors = tg["errors"]
# 64 crashes; 50 came after it in the same worker, so it fails too; 40 was done before.
assert tg["failures"] == 2 and len(errors) == 2, errors
assert errors[0].startswith("gemm/planted/s/row/NN/64x64x64/threads:1: its worker was killed")
assert errors[1].startswith("gemm/planted/s/row/NN/50x50x50/threads:1: its worker was killed")
got = {(b["impl"], b["m"]) for b in d["benchmarks"] if b["aggregate_name"] == "median"}
assert got == {("planted", 40), ("tgemm", 40), ("tgemm", 64), ("tgemm", 50)}, got
EOF
check $? "the dead worker's cases are recorded as failures, the other implementation's results kept"

# ---- make gbench: a plain Google Benchmark binary whose --benchmark_filter works ----
"$B/tgemm-gbench" --benchmark_filter='^dgemm/tgemm/threads:1/64/' --benchmark_min_time=0.001 \
    --benchmark_format=json > "$T/gbench.json" 2> "$T/gbench.err"
rc=$?
[ "$rc" = 0 ] && "$PY" - "$T/gbench.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
names = [b["name"] for b in d["benchmarks"]]
assert names == ["dgemm/tgemm/threads:1/64/real_time"], names
assert d["benchmarks"][0]["FLOPS"] > 1e8, d["benchmarks"][0]
EOF
check $? "tgemm-gbench runs only the filtered benchmark and reports FLOPS"

# ---- time-split (tools/time_split.c): bad input exits 2; a run on a shape with every edge (rows
# past a tile, a partial panel, k under kc) prints its five stages, each at a positive rate ----
"$B/time-split" s 0 > "$T/o" 2> "$T/e"
[ $? = 2 ] && [ ! -s "$T/o" ] && grep -q usage "$T/e"
check $? "time-split rejects a zero size"
"$B/time-split" d 50x70x30 1 > "$T/split.out" 2>&1 && "$PY" - "$T/split.out" << 'EOF'
import re, sys
rows = [l.split() for l in open(sys.argv[1]) if re.match(r"(peak|loop|panel|block|call) ", l)]
assert [r[0] for r in rows] == ["peak", "loop", "panel", "block", "call"], rows
assert all(float(r[1]) > 0 for r in rows), rows
EOF
check $? "time-split times its five stages"

echo "harness: $passed passed, $failed failed"
[ "$failed" = 0 ]
