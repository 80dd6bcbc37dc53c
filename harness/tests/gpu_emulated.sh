#!/bin/sh
# tgemm-bench --device cuda on the CPU emulation (make test-harness-cuda-emulated): the GPU side's
# own code (harness/cuda/: workers, host and GPU checks, timing loop, device record) and the ladder's
# kernels, run here without a GPU. Every GPU implementation over small odd shapes, both transposes and
# layouts, beta zero (C poisoned with NaN) and not: all correct by the host's fp64 reference, and
# again with every case sent through the GPU check (cuBLAS DGEMM, emulated); a planted wrong element
# caught by both checks; the TF32 line really rounded (it would fail an FP32 check) yet within
# TF32's; the report made from the sweep's own JSON. Speeds mean nothing here and are not looked at.
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

$PY harness/report.py --sweep "$T/host.json" --out "$T/report" > "$T/r" 2>&1
rc=$?
md=$T/report/report.md
rows=$(sed -n '/^## The SGEMM ladder/,/^### tgemm-cuda against/p' "$md" 2>/dev/null |
       grep -c '^| cu\|^| tgemm')
[ "$rc" = 0 ] && [ "$rows" = 12 ]
check $? "report.py on the sweep's own JSON: exit $rc, the ladder table has all $rows \
implementations"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
