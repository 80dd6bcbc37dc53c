#!/bin/sh
# Tests of `tgemm-bench ceilings` (make test-ceilings): bad options are refused with exit 2; a quick
# run writes JSON of the agreed shape, with compute ceilings for exactly the instruction sets this
# CPU has; an existing file is kept unless --force; and the sweep reads the file back for peak_pct.
# Nothing here asserts a speed: the probes' numbers are only required to be positive and the sweep
# ordered, because on a shared machine any threshold would be a coin toss.
# usage: sh harness/tests/report/ceilings_test.sh BUILD OUT
B=${1:-build}
OUT=${2:-$B/report-test/ceilings}
BENCH=$B/tgemm-bench
PY=/usr/bin/python3
passed=0
failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
# counts the ok/FAIL lines a Python check printed into $OUT/py
counted() {
    cat "$OUT/py"
    passed=$((passed + $(grep -c '^ok ' "$OUT/py")))
    failed=$((failed + $(grep -c '^FAIL ' "$OUT/py")))
    grep -qE '^(ok|FAIL) ' "$OUT/py" || bad "a Python check printed nothing"
}
rm -rf "$OUT"
mkdir -p "$OUT"
F=$OUT/ceilings.json

"$BENCH" ceilings --help > "$OUT/help" 2>&1
check $(( $? + $(grep -c -- '--threads' "$OUT/help") == 0 )) "--help exits 0 and documents --threads"
for args in "--threads 0" "--threads 1,x" "--threads 100000" "--bogus" "--out" \
            "--quick --out /proc/no/such/ceilings.json"; do
    "$BENCH" ceilings $args > "$OUT/o" 2> "$OUT/e"
    rc=$?
    [ "$rc" = 2 ] && [ -s "$OUT/e" ]
    check $? "bad option '$args': exit $rc ($(head -n 1 "$OUT/e"))"
done

"$BENCH" ceilings --quick --threads 1,all --out "$F" > "$OUT/o" 2> "$OUT/e"
rc=$?
check $rc "quick run for 1 thread and all exits 0"
[ ! -e "$F.tmp" ]
check $? "no temporary file left behind"
"$BENCH" machine > "$OUT/machine.json"
$PY - "$F" "$OUT/machine.json" > "$OUT/py" 2>&1 <<'PYEOF'
import json, sys
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
try:
    c = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    check(False, f"ceilings file is JSON ({e})")
    sys.exit(0)
m = json.load(open(sys.argv[2]))
check(all(c["machine"].get(k) == m[k] for k in m if k != "date"),
      "machine object equals `tgemm-bench machine` (date aside)")
check(c.get("command", "").startswith("tgemm-bench ceilings --quick"), "command recorded")
check([t.get("threads") for t in c.get("threads", [])] == [1, m["cores"]],
      "one entry per thread count asked (1 and all)")
isas = {"scalar", "avx2"} if m["isa"]["avx2_fma"] else set()
if m["isa"]["avx512f"]:
    isas.add("avx512")
for t in c.get("threads", []):
    n = t.get("threads")
    check(isinstance(t.get("clock_ghz"), (int, float)) and t["clock_ghz"] > 0, f"{n}: clock > 0")
    for d in "sd":
        got = t.get("peak_gflops", {}).get(d, {})
        check(set(got) >= isas - {"scalar"} and set(got) <= {"scalar", "avx2", "avx512"}
              and all(isinstance(v, (int, float)) and v > 0 for v in got.values()),
              f"{n}: {d} peaks for this CPU's instruction sets, all > 0 ({got})")
    bw = t.get("bandwidth_gbs", {})
    check(set(bw) == {"L1", "L2", "L3", "DRAM"} and
          all(v is None or v > 0 for v in bw.values()) and bw["L1"], f"{n}: bandwidth per level ({bw})")
    check(isinstance(t.get("copy_gbs"), (int, float)) and t["copy_gbs"] > 0, f"{n}: memcpy > 0")
    for key in ("sweep", "sweep_triad"):
        s = t.get(key, [])
        sizes = [p[0] for p in s]
        check(len(s) >= 8 and all(len(p) == 2 and p[1] > 0 for p in s)
              and sizes == sorted(set(sizes)) and sizes[-1] >= 4 * 2**20 * n // 2,
              f"{n}: {key}: {len(s)} points, sizes increasing to {sizes[-1] if s else 0}, GB/s > 0")
PYEOF
counted
cp "$F" "$OUT/before.json"
"$BENCH" ceilings --quick --threads 1 --out "$F" > /dev/null 2> "$OUT/e"
rc=$?
cmp -s "$F" "$OUT/before.json" && grep -q "kept" "$OUT/e"
check $(($? + rc)) "without --force an existing file is kept ($(head -n 1 "$OUT/e"))"
"$BENCH" ceilings --quick --threads 1 --out "$F" --force > /dev/null 2> "$OUT/e"
rc=$?
grep -q "written to" "$OUT/e" && ! cmp -s "$F" "$OUT/before.json"
check $(($? + rc)) "--force measures again and rewrites it"

# The sweep reads the file back: peak_pct = 100 * GFLOPS / the best peak for that dtype and threads.
"$BENCH" --impl tgemm --dtype s --sizes 64 --threads 1 --rounds 1 --min-time 0.01 --ceilings "$F" \
    --out "$OUT/sweep.json" > /dev/null 2>&1
rc=$?
$PY - "$F" "$OUT/sweep.json" > "$OUT/py" 2>&1 <<'PYEOF'
import json, sys
c, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
peak = max(c["threads"][0]["peak_gflops"]["s"].values())
e = [b for b in s["benchmarks"] if b.get("aggregate_name") == "median"][0]
want = 100 * e["GFLOPS"] / peak
ok = abs(e.get("peak_pct", -1) - want) <= 0.01 * want
print(("ok   " if ok else "FAIL ") + f"the sweep's peak_pct uses this file ({e.get('peak_pct')} vs {want:.4g})")
PYEOF
check $rc "a tiny sweep with --ceilings exits 0"
counted

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
