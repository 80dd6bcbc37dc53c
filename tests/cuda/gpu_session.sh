#!/bin/sh
# One batch of everything the CUDA SGEMM needs from a lent GPU, for a session that has one (device
# time is short: one call does it all). Builds with nvcc there, records the machine, runs the full
# test suite, then compute-sanitizer memcheck, racecheck and initcheck on the small sizes (C left
# unwritten before beta-zero calls, so initcheck sees any read of it). A tool that refuses the
# device is recorded as such in its log, not hidden.
#   usage: sh tests/cuda/gpu_session.sh LOG_DIR [tests|sanitizers|all]
#          LOG_DIR: e.g. $OUT on the device machine; copy the logs to results/<gpu>/ afterwards, with
#          the commit they ran. The phases can go in separate calls when one call's time is short
#          (the sanitizers, racecheck above all, multiply the run time).
# Exit status: non-zero if the build or any run failed.
dir=${1:?usage: gpu_session.sh LOG_DIR [tests|sanitizers|all]}
phase=${2:-all}
mkdir -p "$dir"
status=0
{
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown) $(git status --porcelain 2>/dev/null | grep -q . && echo '(with local changes)')"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
    nvidia-smi
    nvcc --version
} > "$dir/machine.txt" 2>&1
make -s build/cuda/test_cuda build/cuda/single_header || exit 1
if [ "$phase" != sanitizers ]; then
    build/cuda/test_cuda > "$dir/test_cuda.log" 2>&1 || status=1
    tail -n 15 "$dir/test_cuda.log"
    build/cuda/single_header > "$dir/single_header.log" 2>&1 || status=1
    tail -n 1 "$dir/single_header.log"
fi
[ "$phase" = tests ] && exit $status
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck initcheck; do
    extra=""
    [ "$tool" = initcheck ] && extra="TGEMM_TEST_UNINIT_C=1"
    env TGEMM_TEST_SMALL=1 $extra "$san" --tool "$tool" --error-exitcode 3 build/cuda/test_cuda \
        > "$dir/sanitizer_$tool.log" 2>&1 || status=1
    summary=$(grep -E 'ERROR SUMMARY|passed, [0-9]+ failed' "$dir/sanitizer_$tool.log" | tr '\n' ' ')
    echo "$tool: ${summary:-$(tail -n 2 "$dir/sanitizer_$tool.log" | tr '\n' ' ')}"
done
exit $status
