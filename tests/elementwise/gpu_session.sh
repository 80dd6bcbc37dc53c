#!/bin/sh
# Everything the elementwise kernels need from a lent GPU, in one call: the machine, the full CUDA
# elementwise tests, the > 2^31-element case, compute-sanitizer memcheck and racecheck on small
# sizes, and the bandwidth benchmark against a device-to-device copy. Logs go to LOG_DIR (e.g. $OUT
# on the device machine); commit them under results/<gpu>/elementwise/ with the commit they ran
# (TGEMM_COMMIT=<sha> names it where the tree has no .git). A build that fails with warnings as
# errors is tried again without (WERROR=).
#   usage: sh tests/elementwise/gpu_session.sh LOG_DIR
# Exit status: non-zero if the build or any test failed.
dir=${1:?usage: gpu_session.sh LOG_DIR}
mkdir -p "$dir"
status=0
{
    echo "commit: ${TGEMM_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
    nvcc --version
} > "$dir/machine.txt" 2>&1
targets="build/elementwise/test_cuda_elementwise build/elementwise/bench_cuda_elementwise"
jobs=$(nproc 2>/dev/null || echo 4)
if make -s -j"$jobs" $targets > "$dir/build.log" 2>&1; then
    echo "warnings as errors: yes" >> "$dir/machine.txt"
else
    echo "warnings as errors: no (the -Werror build failed: see build.log)" >> "$dir/machine.txt"
    make -s -j"$jobs" WERROR= $targets >> "$dir/build.log" 2>&1 ||
        { cat "$dir/build.log"; exit 1; }
fi
build/elementwise/test_cuda_elementwise > "$dir/test_cuda_elementwise.log" 2>&1 || status=1
tail -n 5 "$dir/test_cuda_elementwise.log"
build/elementwise/test_cuda_elementwise --large > "$dir/test_cuda_elementwise_large.log" 2>&1 || status=1
tail -n 1 "$dir/test_cuda_elementwise_large.log"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
    "$san" --tool "$tool" --error-exitcode 3 build/elementwise/test_cuda_elementwise --tiny \
        > "$dir/sanitizer_$tool.log" 2>&1 || status=1
    echo "$tool: $(grep -E 'ERROR SUMMARY|passed, [0-9]+ failed' "$dir/sanitizer_$tool.log" | tr '\n' ' ')"
done
build/elementwise/bench_cuda_elementwise 512 > "$dir/bench_512mib.log" 2>&1 || status=1
build/elementwise/bench_cuda_elementwise 256 > "$dir/bench_256mib.log" 2>&1 || status=1
grep -v '^{' "$dir/bench_512mib.log"
exit $status
