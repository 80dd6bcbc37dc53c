#!/bin/sh
# tgemm-bench --device cuda on the CPU emulation (make test-harness-cuda-emulated): the GPU side's
# own code (harness/cuda/: workers, host and GPU checks, timing loop, device record) and the ladder's
# kernels, run here without a GPU. Every GPU implementation over small odd shapes, both transposes and
# layouts, beta zero (C poisoned with NaN) and not: all correct by the host's fp64 reference, and
# again with every case sent through the GPU check (cuBLAS DGEMM, emulated); a planted wrong element
# caught by both checks; the TF32 line really rounded (it would fail an FP32 check) yet within
# TF32's; the elementwise cases (--op) and the crossover mode (--crossover), each checked, with
# planted faults caught, and its pinned line skipped where pinned memory is refused; the report made
# from the sweep's own JSON. Speeds mean nothing here and are not looked at.
# Ends with "N passed, N failed".
# usage: sh harness/tests/gpu_emulated.sh DIR   (DIR holds the emulated tgemm-bench-cuda)
E=${1:?usage: gpu_emulated.sh DIR}/tgemm-bench-cuda
. "$(dirname "$0")/lib.sh"
SWEEP="--device cuda --sizes 33,7x20x9 --trans NN,TT --layout row,col --rounds 1 --min-time 0.001"

# The JSON of a sweep: every one of the 12 implementations on each of the 8 cases, correct by the
# expected check, timed, on the emulated device.
verify() { # json check-prefix
    $PY - "$1" "$2" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
t = s["context"]["tgemm"]
assert t["device"]["name"].startswith("CPU emulation"), t["device"]
assert t["failures"] == 0, t["errors"]
med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
assert len({b["impl"] for b in med}) == 12 and len(med) == 96, len(med)
for b in med:
    want = sys.argv[2] + ("-tf32" if b["impl"] == "cublas-tf32" else "")
    assert b["correct"] and b["check"] == want and b["max_ratio"] < 16, b
    assert b["GFLOPS"] > 0 and b["threads"] == 1 and b["dtype"] == "s", b
tf32 = max(b["max_ratio"] for b in med if b["impl"] == "cublas-tf32")
fp32 = max(b["max_ratio"] for b in med if b["impl"] == "cublas")
# The TF32 line's ratio against FP32's eps would be 2^13 times its TF32 one: far over the limit.
assert tf32 * 2 ** 13 > 16 > fp32, (tf32, fp32)
print(f"96 cases correct by {sys.argv[2]}; worst ratio cublas {fp32:.3g}, cublas-tf32 {tf32:.3g} "
      f"against TF32's eps ({tf32 * 2 ** 13:.0f} against FP32's)")
EOF
}

# shellcheck disable=SC2086
"$E" $SWEEP --beta 0.5 --out "$T/host.json" > /dev/null 2> "$T/e"
rc=$?
check $rc "a sweep of every GPU implementation, beta 0.5, checked on the host: exit $rc"
verify "$T/host.json" reference > "$T/v" 2>&1
check $? "its JSON: $(tail -n 1 "$T/v")"

# shellcheck disable=SC2086
TGEMM_BENCH_GPU_CHECK=1 "$E" $SWEEP --beta 0 --out "$T/gpu.json" > /dev/null 2> "$T/e"
rc=$?
check $rc "the same, beta 0 (C poisoned), every case through the GPU check: exit $rc"
verify "$T/gpu.json" gpu-dgemm > "$T/v" 2>&1
check $? "its JSON: $(tail -n 1 "$T/v")"

for how in host gpu; do
    env=$([ $how = gpu ] && echo TGEMM_BENCH_GPU_CHECK=1)
    # shellcheck disable=SC2086
    env $env TGEMM_BENCH_GPU_PLANT=1 "$E" --device cuda --impl cuda-05-blocktile_2d,cublas \
        --sizes 33 --trans NT --layout col --rounds 1 --min-time 0.001 --beta 0.5 \
        --out "$T/planted.json" > /dev/null 2> "$T/e"
    rc=$?
    n=$(grep -c '"correct": false' "$T/planted.json")
    [ "$rc" = 1 ] && [ "$n" = 8 ] && [ "$(grep -c '^FAIL ' "$T/e")" = 2 ]
    check $? "a planted wrong element, $how check: exit $rc, both cases failed ($n aggregates), \
$(grep -m 1 '^FAIL' "$T/e")"
done

# Elementwise (--op): every operation in fp32, fp64, fp16 and bf16, odd counts (heads and tails of
# the kernels' 128-bit bodies), checked by ew_check.c on what came back from the "GPU", set against the
# device copy of a GPU ceilings file (the fixture's: copy kernel 2900, cudaMemcpyAsync 2800 GB/s).
GC=harness/tests/report/fixture_gpu_ceilings.json
EW="--device cuda --op add,sub,mul,scale,axpy,activate:gelu_tanh,activate:sigmoid,bias_act:relu"
# shellcheck disable=SC2086
"$E" $EW --dtype s,d,h,b --sizes 1,1001,4099 --rounds 2 --min-time 0.001 --ceilings $GC \
    --out "$T/ew.json" > /dev/null 2> "$T/e"
rc=$?
$PY - "$T/ew.json" > "$T/v" 2>&1 <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["context"]["tgemm"]["failures"] == 0, s["context"]["tgemm"]["errors"]
# the record names the elementwise launchers, not only tg_cuda_sgemm
assert "tg_cuda_add" in s["context"]["tgemm"]["libraries"]["tgemm-cuda"]["config"]
med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
assert len(med) == 8 * 4 * 3, len(med)
for b in med:
    assert b["impl"] == "tgemm-cuda" and b["correct"] and b["check"] == "all", b
    assert b["pattern"] == "device_copy" and b["ceiling_gbps"] == 2900, b
    assert abs(b["ceiling_pct"] - 100 * b["GBps"] / 2900) < 1e-6 * b["ceiling_pct"], b
    assert b["repetitions"] == 2 and b["GBps"] > 0, b
print(f"{len(med)} cases correct, each against the 2900 GB/s device copy")
EOF
check $((rc + $?)) "elementwise on the emulated GPU: exit $rc, $(tail -n 1 "$T/v")"
# shellcheck disable=SC2086
TGEMM_BENCH_GPU_PLANT=1 "$E" $EW --dtype s,h,b --sizes 1001 --rounds 1 --min-time 0.001 \
    --out "$T/planted.json" > /dev/null 2> "$T/e"
rc=$?
n=$(grep -c '^FAIL ' "$T/e")
[ "$rc" = 1 ] && [ "$n" = 24 ]
check $? "a planted last element on the emulated GPU fails every operation in fp32, fp16 and bf16: \
exit $rc, $n of 24, \
$(grep -m 1 '^FAIL' "$T/e")"
# A result of zero (ReLU of a negative: the last of 1002 elements here) is spoilt too: it becomes 1,
# which no small relative error of a non-zero result could give.
TGEMM_BENCH_GPU_PLANT=1 "$E" --device cuda --op activate:relu --sizes 1002 --rounds 1 \
    --min-time 0.001 --out "$T/planted.json" > /dev/null 2> "$T/e"
rc=$?
[ "$rc" = 1 ] && grep -q '^FAIL .*activate:relu element 1001 is 1, ' "$T/e"
check $? "a planted zero result is caught too: exit $rc, $(grep -m 1 '^FAIL' "$T/e")"

# The crossover mode: the four ways of a GEMM (beta 0.5: C copied in and out) and of elementwise
# operations, each checked, tgemm-host's lines with the 3 threads it ran on (OMP_NUM_THREADS), the
# others' with 1, each elementwise line with its own pattern (the device copy on the device, the
# CPU's STREAM pattern on the host, none with copies); then a planted element caught in every one
# of them (tgemm-host's on the host, the others' on the "GPU"), the elementwise host line aside (the
# CPU's own tests plant its faults).
# shellcheck disable=SC2086
OMP_NUM_THREADS=3 "$E" --device cuda --crossover --sizes 33,7x20x9 --trans NN,TT --beta 0.5 \
    --rounds 2 --min-time 0.001 --out "$T/cross.json" > /dev/null 2> "$T/e" &&
    OMP_NUM_THREADS=3 "$E" --device cuda --crossover --op add,axpy,bias_act:silu --dtype s,d,h \
        --sizes 999 --rounds 2 --min-time 0.001 --out "$T/cross-ew.json" > /dev/null 2>> "$T/e"
rc=$?
$PY - "$T/cross.json" "$T/cross-ew.json" > "$T/v" 2>&1 <<'EOF'
import json, sys
ways = {"tgemm-cuda", "tgemm-cuda+pinned", "tgemm-cuda+pageable", "tgemm-host"}
n = 0
for path, cases, fp16 in zip(sys.argv[1:], (4, 9), (0, 3)):
    s = json.load(open(path))
    ctx = s["context"]["tgemm"]
    assert ctx["options"]["crossover"] is True and ctx["failures"] == 0, ctx
    assert ctx["libraries"]["tgemm-host"]["threads"] == 3, ctx["libraries"]
    med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
    for b in med:
        t = 3 if b["impl"] == "tgemm-host" else 1
        assert b["threads"] == t and b["run_name"].endswith(f"/threads:{t}"), b
    assert all(x.split(": ")[0].endswith("/threads:3") for x in ctx["skipped"]), ctx["skipped"]
    cpu = {"add": "add", "axpy": "axpy_inplace", "bias_act:silu": "scale_inplace"}
    for b in med if "op" in med[0] else []:
        want = {"tgemm-cuda": "device_copy", "tgemm-host": cpu[b["op"]]}.get(b["impl"])
        assert b["pattern"] == want, b
    # the CPU has no fp16: tgemm-host skips those cases, and says so
    assert {b["impl"] for b in med} == ways and len(med) == 4 * cases - fp16, len(med)
    assert len([x for x in ctx["skipped"] if "tgemm-host" in x and "no fp16" in x]) == fp16
    assert all(b["correct"] and b["real_time"] > 0 and b["repetitions"] == 2 for b in med), med
    n += len(med)
print(n, "cases, the four ways each (fp16 not on the CPU), all correct, tgemm-host's on 3 threads")
EOF
check $((rc + $?)) "--crossover on the emulated GPU: exit $rc, $(tail -n 1 "$T/v")"
TGEMM_BENCH_GPU_PLANT=1 "$E" --device cuda --crossover --sizes 33 --beta 0.5 --rounds 1 \
    --min-time 0.001 --out "$T/planted.json" > /dev/null 2> "$T/e"
rc=$?
TGEMM_BENCH_GPU_PLANT=1 "$E" --device cuda --crossover --op axpy --sizes 999 --rounds 1 \
    --min-time 0.001 --out "$T/planted.json" > /dev/null 2>> "$T/e"
rc2=$?
n=$(grep -c '^FAIL ' "$T/e")
[ "$rc" = 1 ] && [ "$rc2" = 1 ] && [ "$n" = 7 ]
check $? "--crossover: a planted element caught in every GPU way and tgemm-host's GEMM: exit \
$rc and $rc2, $n failures (7 expected)"

# A machine that refuses pinned host memory (TG_EMU_NO_PINNED: the emulation's cudaMallocHost fails
# and leaves its error as the last one, as the runtime does): every case's pinned line is skipped
# with the CUDA error as its reason, the error is cleared (else the second case's launch would fail),
# the other three ways and the report go on, and the report says "not measured", not "none".
TG_EMU_NO_PINNED=1 "$E" --device cuda --crossover --sizes 33,7x20x9 --beta 0.5 --rounds 2 \
    --min-time 0.001 --out "$T/no-pinned.json" > /dev/null 2> "$T/e" &&
    $PY harness/report.py --sweep "$T/no-pinned.json" --out "$T/report-no-pinned" > "$T/r" 2>&1
rc=$?
$PY - "$T/no-pinned.json" "$T/report-no-pinned/report.md" > "$T/v" 2>&1 <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
ctx = s["context"]["tgemm"]
assert ctx["failures"] == 0, ctx["errors"]
med = [b for b in s["benchmarks"] if b["aggregate_name"] == "median"]
assert {b["impl"] for b in med} == {"tgemm-cuda", "tgemm-cuda+pageable", "tgemm-host"}, med
assert len(med) == 6 and all(b["correct"] for b in med), med
why = [x for x in ctx["skipped"] if "tgemm-cuda+pinned" in x]
assert len(why) == 2 and all("cudaMallocHost of" in x and "invalid configuration" in x
                             for x in why), ctx["skipped"]
rows = [r.split(" | ") for r in open(sys.argv[2]) if r.startswith(("| square | s", "| custom | s"))]
summaries = [r for r in rows if " .. " in r[2]]
assert len(summaries) == 2 and all(r[3] == "not measured" != r[4] for r in summaries), summaries
print("pinned skipped in both cases (%s), the 6 others correct, the report's pinned crossover "
      "not measured" % why[0].split(": ", 1)[1])
EOF
check $((rc + $?)) "--crossover with pinned memory refused: exit $rc, $(tail -n 1 "$T/v")"

$PY harness/report.py --sweep "$T/host.json" --out "$T/report" > "$T/r" 2>&1
rc=$?
md=$T/report/report.md
rows=$(sed -n '/^## The SGEMM ladder/,/^### tgemm-cuda against/p' "$md" 2>/dev/null |
       grep -c '^| cu\|^| tgemm')
[ "$rc" = 0 ] && [ "$rows" = 12 ]
check $? "report.py on the sweep's own JSON: exit $rc, the ladder table has all $rows \
implementations"

$PY harness/report.py --sweep "$T/cross-ew.json" --out "$T/report-cross" > "$T/r" 2>&1
rc=$?
md=$T/report-cross/report.md
rows=$(grep -c '^| \(add\|axpy\|bias_act:silu\) | [sdh] | \(1x\)\?999 ' "$md" 2>/dev/null)
charts=$(ls "$T/report-cross"/crossover_*.png 2>/dev/null | wc -l)
[ "$rc" = 0 ] && [ "$rows" = 18 ] && [ "$charts" = 9 ] && grep -q "^## CPU against GPU" "$md" &&
    grep -q "tgemm-host on 3 threads" "$md"
check $? "report.py on the crossover sweep's own JSON: exit $rc, $charts charts (9), $rows rows \
(9 summaries, 9 cases), tgemm-host on 3 threads"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
