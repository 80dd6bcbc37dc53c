#!/bin/sh
# The CUDA suite of `make test` (target test-cuda-build), for machines with nvcc and perhaps no GPU.
# After make has compiled every kernel (a compile error fails the suite), it checks:
#  - ptxas's resource report (-Xptxas -v, kept beside each object by cuda/cuda.mk) for every ladder
#    step, the warp-tiled and buffered kernels included: no stack frame, no spill stores or loads,
#    one pass per kernel and architecture (register arrays indexed at run time, or too many live
#    values, would show here);
#  - that the committed tgemm_cuda.cuh is what `make amalgamate` makes now;
#  - a C program on the public header and both libraries (build/cuda/c_caller_*), the single
#    header used as documented (build/cuda/single_header), and the GPU tests
#    (build/cuda/test_cuda), each adding its own counts (skipped without a GPU, never passed).
# Ends with one line "N passed, N failed[, N skipped]".
# usage: build_checks.sh OBJ_DIR BUILD_DIR 'AMALGAMATION COMMAND'
obj=$1; out=$2; amalg=$3
passed=0; failed=0; skipped=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

for log in "$obj"/cuda/sgemm/[0-9]*.o.ptxas; do
    f=$(basename "$log" .o.ptxas)
    if [ ! -s "$log" ]; then fail "$log: no resource report"; continue; fi
    # One line per function: "name arch stack spill-stores spill-loads".
    report=$(awk '
        /Compiling entry function/ { arch = $NF; gsub(/\047/, "", arch) }
        /Function properties for/ { name = $NF }
        /bytes stack frame/ { print name, arch, $1, $5, $9 }' "$log")
    if [ -z "$report" ]; then fail "$log: no function in the resource report"; continue; fi
    while read -r name arch stack stores loads; do
        if [ "$stack" = 0 ] && [ "$stores" = 0 ] && [ "$loads" = 0 ]; then pass
        else fail "$f: $name ($arch): $stack bytes stack frame, $stores bytes spill stores, $loads bytes spill loads"
        fi
    done <<EOT
$report
EOT
    for arch in sm_80 sm_90; do
        echo "$report" | grep -q " $arch " || fail "$f: no kernel compiled for $arch"
    done
done
[ "$passed" -ge 18 ] || fail "resource report: $passed kernel builds found, expected 9 steps x 2 architectures at least"
echo "resource report: $passed kernel builds without stack frame or spills"

fresh=$(mktemp); trap 'rm -f "$fresh"' EXIT
if eval "$amalg" > "$fresh" && cmp -s "$fresh" tgemm_cuda.cuh; then pass
else fail "tgemm_cuda.cuh is not what 'make amalgamate' makes now: run it and commit the header"
fi

# A program's closing line, added to ours; a crash or a missing line is one failure.
add_counts() {
    name=$1; shift
    text=$("$@" 2>&1); rc=$?
    echo "$text"
    last=$(echo "$text" | grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1)
    if [ -z "$last" ]; then fail "$name: exit $rc without a closing count"; return; fi
    p=$(echo "$last" | cut -d' ' -f1); f=$(echo "$last" | cut -d' ' -f3)
    s=$(echo "$last" | grep -oE '[0-9]+ skipped' | cut -d' ' -f1)
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then fail "$name: exit $rc"; fi
}
add_counts c_caller_shared "$out/c_caller_shared"
add_counts c_caller_static "$out/c_caller_static"
add_counts single_header "$out/single_header"
add_counts test_cuda "$out/test_cuda"

if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ "$failed" -eq 0 ]
