#!/bin/sh
# Tests of tgemm-bench's GPU side (make test-harness-cuda; also run on the lent GPU by
# tests/cuda/gpu_session.sh): the GPU build compiled (nvcc, warnings as errors); --device cuda's
# options (--op and --crossover too) and every bad input (exit 2, one line, nothing done), through
# build/tgemm-bench, which hands the command to build/tgemm-bench-cuda; the hand-over itself when
# tgemm-bench-cuda is missing; the GPU implementations' records. Then, without a GPU: the sweep,
# `ceilings --device cuda` and `machine --device cuda` each say so in one line with exit status 2 and
# write nothing; with a GPU: a small sweep end to end, every implementation and case checked, the
# JSON read back field by field, the ceilings file (host<->device copies included), the elementwise
# kernels in all four types against its device copy, and the crossover mode's four ways. The
# GPU-only checks are counted as skipped where there is no GPU.
# Ends with "N passed, N failed[, N skipped]".
# usage: sh harness/tests/gpu_run.sh BUILD_DIR
B=${1:-build}
GPU=$B/tgemm-bench-cuda
# The CPU build hands --device cuda over; on the GPU machine (no Google Benchmark) only the GPU
# build exists, and it is called directly.
BENCH=$B/tgemm-bench
[ -x "$BENCH" ] || BENCH=$GPU
. "$(dirname "$0")/lib.sh"
finish() {
    if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
    else echo "$passed passed, $failed failed"; fi
    [ "$failed" -eq 0 ]
    exit
}

if [ ! -x "$GPU" ]; then
    skip "everything: $GPU was not built (no nvcc)" 39
    finish
fi
ok "the GPU build compiled with nvcc, warnings as errors ($GPU)"

# ---- bad input: exit 2, one line on stderr naming the problem, nothing on stdout ----
usage_error() { # pattern args...
    pattern=$1
    shift
    "$BENCH" "$@" > "$T/o" 2> "$T/e"
    rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l < "$T/e")" = 1 ] && [ ! -s "$T/o" ] &&
        grep -q -- "$pattern" "$T/e"
    then ok "bad input rejected: $* -> $(cat "$T/e")"
    else bad "bad input: $* (exit $rc, stderr: $(cat "$T/e"), stdout: $(head -c 200 "$T/o"))"
    fi
}
usage_error "unknown device 'gpu'" --device gpu
usage_error "--device needs a value" --device
usage_error "unknown implementation 'openblas' for --device cuda" --device cuda --impl openblas
usage_error "unknown implementation 'cuda-10-x' for --device cuda" --device=cuda --impl cuda-10-x
usage_error "unknown implementation 'cublas' (.*GPU ones need --device cuda" --impl cublas
usage_error "fp32 only" --device cuda --dtype d
usage_error "fp32 only" --device cuda --dtype s,d
usage_error "takes 1 only" --device cuda --threads 2
usage_error "takes 1 only" --device cuda --threads 1,all
usage_error "malformed size '0'" --device cuda --sizes 0
usage_error "unknown transpose pair 'NX'" --device cuda --trans NX
usage_error "GEMMs in fp32 only" --device cuda --crossover --dtype d
usage_error "fp16 and bf16 are for the GPU's elementwise kernels only" --device cuda --dtype h
usage_error "needs --device cuda" --crossover --sizes 64
usage_error "runs in the crossover mode only (add --crossover)" --device cuda --impl tgemm-host
usage_error "runs in the crossover mode only" --device cuda --op add --impl tgemm-cuda+pinned
usage_error "takes no --trans" --device cuda --op add --trans NT
usage_error "malformed element count '1e3x'" --device cuda --op add --sizes 1e3x
usage_error "cannot create" --device cuda --out "$T/missing/sweep.json"
usage_error "unknown option '--threads' with --device cuda" ceilings --device cuda --threads 2
usage_error "the options are --slug and --device" machine --device cuda --bogus

# ---- planning (no GPU needed): the cases of --device cuda ----
"$BENCH" --device cuda --list --sizes 256,4093x33x1000 --trans NN,TT --layout row,col \
    > "$T/list" 2> "$T/e"
rc=$?
expect="s/row/NN/256x256x256/1 square
s/row/NN/4093x33x1000/1 custom
s/row/TT/256x256x256/1 square
s/row/TT/4093x33x1000/1 custom
s/col/NN/256x256x256/1 square
s/col/NN/4093x33x1000/1 custom
s/col/TT/256x256x256/1 square
s/col/TT/4093x33x1000/1 custom"
[ "$rc" = 0 ] && [ "$(cat "$T/list")" = "$expect" ]
check $? "--device cuda --list: fp32, one host thread, every transpose and layout \
($(wc -l < "$T/list") cases)"
"$BENCH" --device cuda --op add,bias_act:relu --dtype s,d,h,b --sizes 1e3,2^20 --list > "$T/list" \
    2> "$T/e"
rc=$?
expect=""
for d in s d h b; do
    expect="$expect${expect:+
}add/$d/1000/1 elementwise
add/$d/1048576/1 elementwise
bias_act:relu/$d/1x1000/1 elementwise
bias_act:relu/$d/1024x1024/1 elementwise"
done
[ "$rc" = 0 ] && [ "$(cat "$T/list")" = "$expect" ]
check $? "--device cuda --op --list: elementwise cases in fp32, fp64, fp16 and bf16 \
($(wc -l < "$T/list") cases)"
"$BENCH" --device cuda --list --sizes linear > "$T/list" 2> "$T/e"
[ $? = 0 ] && [ "$(wc -l < "$T/list")" = 18 ] && ! grep -qv '^s/row/NN/.*/1 linear$' "$T/list"
check $? "--device cuda --list --sizes linear: the 18 linear-layer shapes"

# ---- the GPU implementations: every ladder step, the launcher, cuBLAS and its TF32 line ----
"$BENCH" --help > "$T/help" 2>&1
grep -q -- "--device D" "$T/help" && grep -q "cublas-tf32" "$T/help" &&
    grep -q -- "--crossover" "$T/help" && grep -q "tgemm-cuda+pageable" "$T/help"
check $? "--help documents --device, --crossover and the GPU implementations"
names="cuda-01-naive cuda-02-coalesce cuda-03-smem_tile cuda-04-blocktile_1d cuda-05-blocktile_2d
cuda-06-vectorize cuda-07-bank_conflicts cuda-08-warptile cuda-09-double_buffer tgemm-cuda cublas
cublas-tf32 tgemm-cuda+pinned tgemm-cuda+pageable tgemm-host"
n=0
for name in $names; do
    "$GPU" worker --info "$name" > "$T/info" 2>&1 && grep -q '^{"present": true, ' "$T/info" &&
        n=$((n + 1))
done
[ "$n" = 15 ]
check $? "worker --info: all 15 GPU implementations present in the build ($n)"
"$GPU" worker --info tgemm-host > "$T/info" 2>&1
grep -q "on the host, [0-9]* OpenMP threads" "$T/info" && grep -q '"threads": [1-9]' "$T/info"
check $? "worker --info tgemm-host: the host's thread count recorded ($(grep -o 'host, [0-9]* OpenMP threads' "$T/info"))"
"$GPU" worker --info tgemm > "$T/info" 2>&1
grep -q '"present": false, "reason": "tgemm-bench-cuda runs GPU implementations only' "$T/info"
check $? "worker --info tgemm in the GPU build: absent, with the reason"

# ---- the hand-over: build/tgemm-bench without tgemm-bench-cuda beside it ----
if [ -x "$B/tgemm-bench" ]; then
    mkdir -p "$T/alone"
    cp "$B/tgemm-bench" "$T/alone/"
    "$T/alone/tgemm-bench" --device cuda --list > "$T/o" 2> "$T/e"
    rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$T/e")" = 1 ] && grep -q "needs .*tgemm-bench-cuda" "$T/e"
    check $? "tgemm-bench without tgemm-bench-cuda: exit $rc, $(cat "$T/e")"
else
    skip "the hand-over: no build/tgemm-bench here" 1
fi

# ---- the device: none here means one line and exit 2 from each command; a GPU means real runs ----
if ! "$GPU" machine --device cuda --slug > "$T/slug" 2> "$T/e"; then
    for cmd in "--device cuda --sizes 64 --out $T/none.json" \
               "ceilings --device cuda --out $T/none-ceilings.json" "machine --device cuda"; do
        # shellcheck disable=SC2086
        "$BENCH" $cmd > "$T/o" 2> "$T/e"
        rc=$?
        [ "$rc" = 2 ] && [ "$(wc -l < "$T/e")" = 1 ] && grep -q "no CUDA device" "$T/e" &&
            [ ! -s "$T/o" ] && [ ! -e "$T/none.json" ] && [ ! -e "$T/none-ceilings.json" ]
        check $? "no GPU: tgemm-bench $(echo "$cmd" | sed "s|$T/||") -> exit $rc, $(cat "$T/e")"
    done
    skip "the sweeps and the ceilings on a GPU: $(cat "$T/e")" 6
    finish
fi

slug=$(cat "$T/slug")
"$BENCH" --device cuda --sizes 33,100x7x129,256 --trans NN,TT --layout row,col --rounds 2 \
    --min-time 0.005 --beta 0.5 --out "$T/sweep.json" > "$T/o" 2> "$T/e"
rc=$?
check $rc "a small GPU sweep on $slug: every implementation, 12 cases, exit $rc"
$PY - "$T/sweep.json" "$slug" > "$T/json.log" 2>&1 <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
ctx = s["context"]["tgemm"]
dev = ctx["device"]
assert dev["slug"] == sys.argv[2] and dev["sms"] > 0 and dev["name"], dev
assert ctx["failures"] == 0, ctx["errors"]
med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
impls = sorted({b["impl"] for b in med})
assert len(impls) == 12, impls
assert len(med) == 12 * 12, len(med)
for b in med:
    assert b["correct"] is True and b["GFLOPS"] > 0 and b["threads"] == 1 and b["dtype"] == "s", b
    want = "reference-tf32" if b["impl"] == "cublas-tf32" else "reference"
    assert b["check"] == want and b["max_ratio"] < 16, b
print("ok", len(med), "cases")
EOF
check $? "the sweep's JSON: the device recorded, all 144 cases correct and timed \
($(tail -n 1 "$T/json.log"))"
"$BENCH" ceilings --device cuda --out "$T/ceilings.json" > "$T/o" 2> "$T/e"
rc=$?
$PY - "$T/ceilings.json" > "$T/json.log" 2>&1 <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
t = c["threads"][0]
assert c["device"]["sms"] > 0 and t["threads"] == 1
assert t["peak_gflops"]["s"]["fp32_fma"] > 0 and t["copy_gbs"] > 0 and t["memcpy_gbs"] > 0
assert len(t["sweep"]) >= 8 and all(p[1] > 0 for p in t["sweep"])
ways = ("h2d_pinned", "d2h_pinned", "h2d_pageable", "d2h_pageable")
# copies of 64 KiB to 1 GiB by 4: 8 sizes
assert all(t["transfer_gbs"][w] > 0 and len(t["transfer_sweep"][w]) == 8 for w in ways), t
assert all(t["transfer_gbs"][w] == max(v for b, v in t["transfer_sweep"][w] if b >= 64 << 20)
           for w in ways), t
print("fp32 FMA", t["peak_gflops"]["s"]["fp32_fma"], "GFLOP/s, copy", t["copy_gbs"], "GB/s,",
      ", ".join(f"{w} {t['transfer_gbs'][w]:.1f}" for w in ways), "GB/s")
EOF
check $((rc + $?)) "ceilings --device cuda: exit $rc, $(tail -n 1 "$T/json.log")"
# A wrong element planted in the result (C(m-1, n-1), off by 2^-10): caught, recorded, exit 1.
TGEMM_BENCH_GPU_PLANT=1 "$BENCH" --device cuda --impl cuda-03-smem_tile --sizes 300 --rounds 1 \
    --min-time 0.001 --out "$T/planted.json" > /dev/null 2> "$T/e"
rc=$?
grep -q '"correct": false' "$T/planted.json" && grep -q "FAIL gemm/cuda-03-smem_tile" "$T/e"
check $(( (rc != 1) + $? )) "a planted wrong element is caught: exit $rc, $(grep -m 1 FAIL "$T/e")"

# Elementwise on the GPU: every operation in fp32, fp64, fp16 and bf16, an odd count and one past
# 2^22 (the sampled check), checked, timed and set against the device copy of the ceilings just
# measured.
"$BENCH" --device cuda --op add,sub,mul,scale,axpy,activate:gelu_erf,bias_act:silu --dtype s,d,h,b \
    --sizes 1001,4194307 --rounds 1 --min-time 0.005 --ceilings "$T/ceilings.json" \
    --out "$T/ew.json" > "$T/o" 2> "$T/e"
rc=$?
$PY - "$T/ew.json" "$T/ceilings.json" > "$T/json.log" 2>&1 <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
t = json.load(open(sys.argv[2]))["threads"][0]
ceil = max(t["copy_gbs"], t["memcpy_gbs"])
med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
assert len(med) == 56 and s["context"]["tgemm"]["failures"] == 0, (len(med), s["context"]["tgemm"])
for b in med:
    assert b["impl"] == "tgemm-cuda" and b["correct"] and b["pattern"] == "device_copy", b
    assert abs(b["ceiling_pct"] - 100 * b["GBps"] / ceil) < 1e-6 * b["ceiling_pct"], b
print(f"56 cases correct; best {max(b['ceiling_pct'] for b in med):.0f}% of the device copy")
EOF
check $((rc + $?)) "elementwise on the GPU: exit $rc, $(tail -n 1 "$T/json.log")"

# The crossover mode: GEMM (beta 1: C goes both ways) and two elementwise operations, the four
# ways each, all checked.
"$BENCH" --device cuda --crossover --sizes 64,300 --beta 1 --rounds 1 --min-time 0.005 \
    --out "$T/cross.json" > "$T/o" 2> "$T/e" &&
    "$BENCH" --device cuda --crossover --op add,scale --sizes 1e6 --rounds 1 --min-time 0.005 \
        --out "$T/cross-ew.json" > "$T/o" 2>> "$T/e"
rc=$?
$PY - "$T/cross.json" "$T/cross-ew.json" > "$T/json.log" 2>&1 <<'EOF'
import json, sys
n = 0
for path in sys.argv[1:]:
    s = json.load(open(path))
    ctx = s["context"]["tgemm"]
    assert ctx["options"]["crossover"] is True and ctx["failures"] == 0, ctx
    assert ctx["libraries"]["tgemm-host"]["threads"] >= 1 and ctx["cpu_model"], ctx
    med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
    impls = {b["impl"] for b in med}
    assert impls == {"tgemm-cuda", "tgemm-cuda+pinned", "tgemm-cuda+pageable", "tgemm-host"}, impls
    assert len(med) == 8 and all(b["correct"] and b["real_time"] > 0 for b in med), med
    n += len(med)
print(n, "cases correct")
EOF
check $((rc + $?)) "--crossover: GEMM and elementwise, exit $rc, $(tail -n 1 "$T/json.log")"
finish
