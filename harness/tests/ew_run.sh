#!/bin/sh
# The elementwise side of tgemm-bench (make test-harness-elementwise): --op and its element counts,
# every kind of bad input, a tiny sweep end to end whose JSON is read back and checked number by
# number (bytes as STREAM counts them, GB/s from the time, the matching ceiling, the check's method),
# a planted wrong implementation that the sweep must catch and fail on, and the STREAM references
# (stream, stream_nt): what they refuse, a sweep of them read back, their check catching a planted
# fault. No timing is asserted.
# Ends with "N passed, N failed". JSON is read with Debian's /usr/bin/python3 (standard library).
# usage: sh harness/tests/ew_run.sh BUILD_DIR
B=${1:-build}
BENCH=$B/tgemm-bench
. "$(dirname "$0")/lib.sh"

# ---- bad input: exit 2, one line on stderr naming the problem, nothing on stdout ----
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
usage_error "unknown operation 'foo'" --op foo
usage_error "unknown operation 'gemm'" --op gemm
usage_error "empty item" --op add,,scale
usage_error "activate needs an activation" --op activate
usage_error "bias_act needs an activation" --op bias_act:tanh
usage_error "add takes no activation" --op add:relu
usage_error "--trans describes GEMMs" --op add --trans NN
usage_error "--layout describes GEMMs" --op scale --layout col
usage_error "--alpha describes GEMMs" --op axpy --alpha 2
usage_error "malformed element count '0'" --op add --sizes 0
usage_error "malformed element count '2^41'" --op add --sizes 2^41
usage_error "malformed element count '3^4'" --op add --sizes 3^4
usage_error "malformed element count '1e16'" --op add --sizes 1e16
usage_error "malformed element count '1.5e3'" --op add --sizes 1.5e3
usage_error "malformed element count '1e3:5:x10'" --op add --sizes 1e3:5:x10
usage_error "malformed element count '1e3:1e6:x1'" --op add --sizes 1e3:1e6:x1
usage_error "malformed element count '10x20'" --op add --sizes 10x20
usage_error "malformed element count 'square'" --op add --sizes square
usage_error "fp16 and bf16 are for the GPU's elementwise kernels only" --op add --dtype h
usage_error "unknown dtype 'x'" --op add --dtype x
usage_error "'0' is not a thread count" --op add --threads 0
# A CPU worker handed an fp16 or bf16 case anyway (by hand) skips it: the CPU calls take fp32 and
# fp64 only, and 2-byte arrays read as either would be overrun.
for impl in tgemm openblas; do
    "$BENCH" worker $impl --check scale/h/1000000/1 axpy/b/1000/1 > "$T/o" 2> "$T/e"
    rc=$?
    [ "$rc" = 0 ] && [ "$(grep -c '^skip [01] .*no fp16 or bf16' "$T/o")" = 2 ]
    check $? "worker $impl skips fp16 and bf16 cases: exit $rc, $(head -n 1 "$T/o")"
done

# ---- parsing: counts, shapes and the plan (--list runs nothing) ----
list() { "$BENCH" --dtype s --threads 1 "$@" --list 2> "$T/e"; }
[ "$(list --op add --sizes 1e3:1e5:x10 | cut -d' ' -f1 | tr '\n' ' ')" = \
  "add/s/1000/1 add/s/10000/1 add/s/100000/1 " ]
check $? "AeB counts and a geometric range of them"
[ "$(list --op scale --sizes 2^10,1000:3000:1000,1e3 | cut -d' ' -f1 | tr '\n' ' ')" = \
  "scale/s/1024/1 scale/s/1000/1 scale/s/2000/1 scale/s/3000/1 " ]
check $? "2^K, a linear range, and a count listed twice planned once"
[ "$(list --op bias_act:gelu_tanh,activate:silu --sizes 1000,4096 | tr '\n' ' ')" = \
  "bias_act:gelu_tanh/s/1x1000/1 elementwise bias_act:gelu_tanh/s/4x1024/1 elementwise activate:silu/s/1000/1 elementwise activate:silu/s/4096/1 elementwise " ]
check $? "bias_act on rows x 1024 (a narrower single row below that), activate on the count"
[ "$(list --op add | wc -l)" = 6 ]
check $? "--op without --sizes: 1e3 to 1e8, x10 ($(list --op add | wc -l) cases)"
[ "$("$BENCH" --op add,add,mul --dtype s,d --threads 1,2 --sizes 1e3 --list | wc -l)" = 8 ]
check $? "dtypes x threads x operations x counts, a repeated operation once"
"$BENCH" --help | grep -q -- "--op add,axpy,activate:gelu_tanh,bias_act:relu"
check $? "--help documents --op with an example"

# ---- a tiny sweep end to end: every case checked, then timed; JSON read back number by number ----
"$BENCH" ceilings --quick --threads 1 --force --out "$T/ceilings.json" 2> "$T/ceil.log"
check $? "quick ceilings with the STREAM probes for the sweep's ceiling_pct"
# 4200000 elements is above 2^22: the sampled check; 1000 is checked whole.
"$BENCH" --op add,scale,axpy,activate:gelu_tanh,bias_act:relu --dtype s,d --threads 1 \
    --sizes 1000,4200000 --impl tgemm,openblas --rounds 3 --min-time 0.001 --warmup 0 \
    --ceilings "$T/ceilings.json" --out "$T/ew.json" 2> "$T/ew.log"
rc=$?
check "$rc" "tiny elementwise sweep exits 0 ($(tail -n 1 "$T/ew.log"))"
"$PY" - "$T/ew.json" "$T/ceilings.json" > "$T/ew.out" 2>&1 <<'EOF'
import json, sys
sweep = json.load(open(sys.argv[1]))
ceil = {t["threads"]: t["stream_gbs"] for t in json.load(open(sys.argv[2]))["threads"]}
es = {"s": 4, "d": 8}
arrays = {"add": 3, "scale": 2, "axpy": 3, "activate:gelu_tanh": 2, "bias_act:relu": 2}
pattern = {"add": "add", "scale": "scale_inplace", "axpy": "axpy_inplace",
           "activate:gelu_tanh": "copy", "bias_act:relu": "scale_inplace"}
med = [b for b in sweep["benchmarks"] if b["aggregate_name"] == "median"]
def out(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
tg = [b for b in med if b["impl"] == "tgemm"]
ob = [b for b in med if b["impl"] == "openblas"]
out(len(tg) == 20, "tgemm: 5 operations x 2 dtypes x 2 counts timed (%d)" % len(tg))
present = sweep["context"]["tgemm"]["libraries"]["openblas"]["present"]
if present:
    out(sorted((b["op"], b["dtype"], b["elements"]) for b in ob) ==
        sorted((o, d, n) for o in ("axpy", "scale") for d in "sd" for n in (1000, 4200000)),
        "openblas: axpy and scale only")
    skipped = sweep["context"]["tgemm"]["skipped"]
    out(len(skipped) == 12 and all("BLAS has axpy and scal only" in s for s in skipped),
        "openblas: the other 12 cases reported as skipped, with why")
bad = []
for b in med:
    n, size = b["elements"], es[b["dtype"]]
    want = arrays[b["op"]] * n * size + (b["cols"] * size if b["op"].startswith("bias_act") else 0)
    if b["bytes"] != want: bad.append("%s bytes %s != %s" % (b["name"], b["bytes"], want))
    gbps = want / (b["real_time"] * 1e6) # 3 repetitions: the median rate is that of the median time
    if abs(b["GBps"] - gbps) > 1e-6 * gbps: bad.append("%s GBps %s != %s" % (b["name"], b["GBps"], gbps))
    c = max(ceil[b["threads"]].get(pattern[b["op"]]) or 0,
            ceil[b["threads"]].get(pattern[b["op"]] + "_nt") or 0)
    if b["pattern"] != pattern[b["op"]] or abs(b["ceiling_gbps"] - c) > 1e-4 * c:
        bad.append("%s ceiling %s %s, expected %s %s" % (b["name"], b["pattern"], b["ceiling_gbps"],
                                                        pattern[b["op"]], c))
    if abs(b["ceiling_pct"] - 100 * b["GBps"] / b["ceiling_gbps"]) > 1e-6 * b["ceiling_pct"]:
        bad.append("%s ceiling_pct %s" % (b["name"], b["ceiling_pct"]))
    if not b["correct"] or b["check"] != ("all" if n <= 1 << 22 else "sampled"):
        bad.append("%s correct %s check %s" % (b["name"], b["correct"], b["check"]))
    exact = not b["op"].startswith("activate:gelu")
    if (b["max_ulps"] != 0) if exact else not (0 < b["max_ulps"] <= 16):
        bad.append("%s max_ulps %s" % (b["name"], b["max_ulps"]))
    if b["op"] == "bias_act:relu" and (b["rows"], b["cols"]) != ((1, 1000) if n == 1000 else (4101, 1024)):
        bad.append("%s shape %s x %s" % (b["name"], b["rows"], b["cols"]))
    if b["repetitions"] != 3: bad.append("%s: %s repetitions, 3 rounds run" % (b["name"], b["repetitions"]))
out(not bad, "every entry: bytes, GB/s, pattern, ceiling, correct, method, ulps, shape, rounds" +
    ("" if not bad else ": " + "; ".join(bad[:4])))
out(sweep["context"]["tgemm"]["failures"] == 0, "no failures recorded")
EOF
cat "$T/ew.out"
passed=$((passed + $(grep -c '^ok ' "$T/ew.out")))
failed=$((failed + $(grep -c '^FAIL ' "$T/ew.out")))
grep -q '^ok ' "$T/ew.out" || bad "the sweep's JSON could not be checked: $(tail -n 2 "$T/ew.out")"

# ---- a planted wrong implementation: the last element of the largest case just past the bound:
# ---- one ulp off for add (exact), 64 ulps for SiLU (16 allowed) ----
TGEMM_BENCH_PLANTED=1 "$BENCH" --op add,activate:silu --dtype s --threads 1 --sizes 1000,4200000 \
    --impl tgemm,planted --rounds 1 --min-time 0.001 --warmup 0 --out "$T/plant.json" \
    2> "$T/plant.log"
rc=$?
check $((rc != 1)) "planted: the sweep exits 1 ($(tail -n 1 "$T/plant.log"))"
"$PY" - "$T/plant.json" > "$T/plant.out" 2>&1 <<'EOF'
import json, re, sys
s = json.load(open(sys.argv[1]))
med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
wrong = sorted(b["run_name"] for b in med if not b["correct"])
want = ["elementwise/planted/activate:silu/s/4200000/threads:1",
        "elementwise/planted/add/s/4200000/threads:1"]
print(("ok   " if wrong == want else "FAIL ") + "planted: exactly its two largest cases fail: %s" % wrong)
errs = s["context"]["tgemm"]["errors"]
add = [e for e in errs if "/add/" in e]
silu = [e for e in errs if "/activate:silu/" in e]
ok = len(add) == 1 and "element 4199999" in add[0] and " 1 ulps off (limit 0" in add[0]
print(("ok   " if ok else "FAIL ") + "planted: add one ulp off is caught, element named (%s)" % add)
ok = len(silu) == 1 and "element 4199999" in silu[0] and re.search(r" 6[34]\.?[0-9]* ulps off \(limit 16\)", silu[0])
print(("ok   " if ok else "FAIL ") + "planted: SiLU 64 ulps off is caught against 16 (%s)" % silu)
EOF
cat "$T/plant.out"
passed=$((passed + $(grep -c '^ok ' "$T/plant.out")))
failed=$((failed + $(grep -c '^FAIL ' "$T/plant.out")))
grep -q '^ok ' "$T/plant.out" || bad "the planted sweep's JSON could not be checked"

# ---- the STREAM references (stream, stream_nt): the ceilings' kernel of each case's pattern over
# ---- its arrays, timed as an implementation; refused where it has no meaning, with why ----
"$BENCH" worker stream --check s/row/NN/64x64x64/1 > "$T/o" 2>&1
grep -q '^skip 0 the STREAM references run elementwise cases (--op) only, not GEMMs$' "$T/o"
check $? "worker stream refuses a GEMM case: $(head -n 1 "$T/o")"
"$BENCH" worker stream_nt --check scale/s/1000/1 axpy/d/1000/1 bias_act:relu/s/1x1000/1 \
    > "$T/o" 2>&1
[ "$(grep -c '^skip [012] non-temporal stores are for out-of-place patterns' "$T/o")" = 3 ]
check $? "worker stream_nt refuses the in-place patterns: $(head -n 1 "$T/o")"
"$BENCH" --impl tgemm,stream --dtype s --sizes 64 --threads 1 --rounds 1 --min-time 0.001 \
    --warmup 0 --out "$T/gemm-stream.json" 2> "$T/e"
rc=$?
[ "$rc" = 0 ] && grep -q '"gemm/stream/s/row/NN/64x64x64/threads:1: the STREAM references run elementwise cases' "$T/gemm-stream.json" &&
    ! grep -q '"impl": "stream"' "$T/gemm-stream.json"
check $? "a GEMM sweep with --impl stream: exit $rc, the case skipped with why, nothing timed"
# Odd counts (a tail after the last vector, parts that are no multiple of a line) on 1 to 3 threads.
"$BENCH" --op add,scale,axpy,activate:relu,bias_act:relu --dtype s,d --threads 1,2,3 \
    --sizes 1001,100003 --impl stream,stream_nt --rounds 3 --min-time 0.001 --warmup 0 \
    --ceilings "$T/ceilings.json" --out "$T/stream.json" 2> "$T/stream.log"
rc=$?
check "$rc" "a sweep of the STREAM references exits 0 ($(tail -n 1 "$T/stream.log"))"
"$PY" - "$T/stream.json" > "$T/stream.out" 2>&1 <<'EOF2'
import json, sys
sweep = json.load(open(sys.argv[1]))
tg = sweep["context"]["tgemm"]
med = [b for b in sweep["benchmarks"] if b["aggregate_name"] == "median"]
def out(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
pattern = {"add": "add", "scale": "scale_inplace", "axpy": "axpy_inplace", "activate:relu": "copy",
           "bias_act:relu": "scale_inplace"}
arrays = {"add": 3, "scale": 2, "axpy": 3, "activate:relu": 2, "bias_act:relu": 2}
def elements(op, n):  # bias_act runs on rows x 1024 (one row of n below that)
    return n // 1024 * 1024 if op.startswith("bias_act") and n > 1024 else n
want = {(i, o, d, elements(o, n), t) for o in pattern for d in "sd" for n in (1001, 100003)
        for t in (1, 2, 3) for i in ("stream", "stream_nt")
        if i == "stream" or o in ("add", "activate:relu")}
got = {(b["impl"], b["op"], b["dtype"], b["elements"], b["threads"]) for b in med}
out(got == want, "stream: every case timed; stream_nt: the out-of-place ones (%d of %d)"
    % (len(got & want), len(want)))
libs = tg["libraries"]
out(all(libs.get(i, {}).get("present") for i in ("stream", "stream_nt")),
    "both references described as present in the JSON's libraries")
nt = [s for s in tg["skipped"] if s.startswith("elementwise/stream_nt/")]
out(len(nt) == 36 and all("non-temporal stores are for out-of-place patterns" in s for s in nt),
    "stream_nt: the 36 in-place cases skipped, with why (%d)" % len(nt))
bad = []
for b in med:
    es = 4 if b["dtype"] == "s" else 8
    n = b["elements"]
    bytes_ = arrays[b["op"]] * n * es + (b["cols"] * es if b["op"].startswith("bias_act") else 0)
    if b["bytes"] != bytes_ or b["pattern"] != pattern[b["op"]]:
        bad.append("%s bytes %s pattern %s" % (b["name"], b["bytes"], b["pattern"]))
    if not (b["GBps"] > 0 and abs(b["GBps"] - bytes_ / (b["real_time"] * 1e6)) <= 1e-6 * b["GBps"]):
        bad.append("%s GBps %s" % (b["name"], b["GBps"]))
    if not b["correct"] or b["max_ulps"] != 0 or b["check"] != "all":
        bad.append("%s correct %s max_ulps %s" % (b["name"], b["correct"], b["max_ulps"]))
    if ("ceiling_gbps" in b) != (b["threads"] == 1):  # the quick ceilings have 1 thread only
        bad.append("%s ceiling %s" % (b["name"], b.get("ceiling_gbps")))
out(not bad, "every reference entry: bytes, pattern, GB/s from the time, checked exactly, its "
    "ceiling" + ("" if not bad else ": " + "; ".join(bad[:4])))
out(tg["failures"] == 0, "no failures recorded")
EOF2
cat "$T/stream.out"
passed=$((passed + $(grep -c '^ok ' "$T/stream.out")))
failed=$((failed + $(grep -c '^FAIL ' "$T/stream.out")))
grep -q '^ok ' "$T/stream.out" || bad "the references' JSON could not be checked"
# Their check can fail: a worker given --plant spoils that case's last element by one ulp. (axpy
# passes as a fused or an unfused multiply-add, which may differ by that ulp: its case here is one
# where they agree; the operands are fixed by the case's text.)
for spec in stream:add/s/1001/2:1000 stream_nt:add/d/1001/3:1000 \
            stream_nt:activate:relu/s/1001/2:1000 stream:scale/d/1001/3:1000 \
            stream:axpy/d/1001/3:1000 stream:bias_act:relu/s/2x1024/2:2047; do
    impl=${spec%%:*}
    c=${spec#*:}
    last=${c##*:}
    c=${c%:*}
    size=$(echo "$c" | cut -d/ -f3)
    case $size in *x*) plant=${size}x1 ;; *) plant=${size}x1x1 ;; esac
    "$BENCH" worker "$impl" --check --min-time 0.0001 --plant "$plant" -- "$c" > "$T/o" 2>&1
    grep -q "^check 0 0 1 all STREAM [a-z_]* element $last is .*, 1 ulps off" "$T/o"
    check $? "planted: $impl's check catches one ulp in $c: $(grep '^check' "$T/o")"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
