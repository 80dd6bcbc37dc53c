#!/bin/sh
# Everything the CUDA side needs from a lent GPU, for a session that has one (device time is short:
# few, full calls). Builds with nvcc there (the machine has nvcc and the CUDA libraries, none of
# Debian's packages: only targets that need nothing else), records the machine, then by phase:
#   tests       the CUDA test suite (build/cuda/test_cuda) and the single-header build
#   sanitizers  compute-sanitizer memcheck, racecheck and initcheck on the small sizes (C left
#               unwritten before beta-zero calls, so initcheck sees any read of it; racecheck on
#               our kernels and one case in eight); a tool that refuses the device is recorded as
#               such in its log, not hidden
#   bench       tgemm-bench's GPU side (build/tgemm-bench-cuda): its tests with a GPU
#               (harness/tests/gpu_run.sh), `ceilings --device cuda`, the ladder sweep (every step,
#               the launcher, cuBLAS and its TF32 line on squares 256..8192 and the odd 1000 and
#               4093), the launcher against cuBLAS on the `linear` family, and their reports
#   crossover   the crossover mode (--crossover: the CPU library on the host's cores against the GPU
#               on the device and with pinned and pageable copies) on the square SGEMM family
#               64..8192 (crossover_gemm.json) and on add, axpy and GELU over 1e3..1e8 elements
#               (crossover_ew.json), then the elementwise kernels on arrays of 256 MiB to 1 GiB
#               against the device copy (elementwise.json; tests/elementwise/gpu_session.sh measures
#               the same ratio more briefly), with their reports; `ceilings --device cuda` first
#               unless bench ran in the same call (a phase of its own: with bench's, more than one
#               10-minute call)
#   all         the four, in that order (more than one 10-minute call: cuda/README.md gives the
#               seconds each step took on the H100, by which a session plans its calls)
# Phases can be joined with commas: tests,sanitizers.
#   usage: sh tests/cuda/gpu_session.sh OUT_DIR [PHASES]
# Everything (machine-<phases>.txt, timings-<phases>.txt, the logs, ceilings.json, ladder.json,
# linear.json, elementwise.json, crossover_gemm.json, crossover_ew.json, the reports in folders of
# those names; a `crossover` call without `bench` measures its own ceilings-crossover.json, so that
# the archives of separate calls unpack side by side without replacing each other's files) is
# written under results/<gpu-slug>/ in a scratch folder and packed into
# OUT_DIR/session-<phases>.tar.gz, the only file OUT_DIR gets: the device tool brings back at most 8
# files from $OUT, two folders deep. The archive is rewritten after every step, so a call stopped at
# its time limit still brings back what finished. Unpack it at the repository root (tar xzf
# session-*.tar.gz) and commit results/<gpu-slug>/; machine-<phases>.txt names the commit it ran.
# Where the copy of the tree has no .git (the device tool sends the working tree), name the commit:
#   TGEMM_COMMIT=$(git rev-parse --short=12 HEAD), written out in the command sent; it goes into
#   machine-<phases>.txt and, through the build's stamp, into every JSON.
# Exit status: non-zero if the build or any run failed.
dir=${1:?usage: gpu_session.sh OUT_DIR [tests|sanitizers|bench|crossover|all, or a comma list]}
phases=${2:-all}
[ "$phases" = all ] && phases=tests,sanitizers,bench,crossover
has() { case ",$phases," in *",$1,"*) return 0 ;; esac; return 1; }
jobs=$(nproc 2>/dev/null || echo 4)
status=0
t0=$(date +%s)
# What the phases need, and always tgemm-bench-cuda: it names the GPU for results/<gpu-slug>/.
targets=build/tgemm-bench-cuda
if has tests || has sanitizers; then targets="$targets build/cuda/test_cuda build/cuda/single_header"; fi
# A newer compiler there may warn where ours does not: rather than lose the lease to a warning, the
# build is tried again with warnings as warnings (WERROR=), and machine-<phases>.txt says so.
W=$(mktemp -d)
werror=yes
if ! make -s -j"$jobs" $targets > "$W/build.log" 2>&1; then
    werror=no
    cat "$W/build.log"
    make -s -j"$jobs" WERROR= $targets >> "$W/build.log" 2>&1 || { cat "$W/build.log"; exit 1; }
fi
slug=$(build/tgemm-bench-cuda machine --device cuda --slug 2>/dev/null || echo no-gpu)
mkdir -p "$dir" || exit 1
R=$W/results/$slug
mkdir -p "$R"
tag=$(echo "$phases" | tr ',' '-')
mv "$W/build.log" "$R/build-$tag.log"
archive=$dir/session-$tag.tar.gz
CEIL=$R/ceilings.json # the GPU ceilings the reports are drawn against (see the crossover phase)
# Packs what is there so far: written beside the archive, then renamed over it, so a call killed
# mid-write leaves the last whole archive. First the step just finished ($1) goes into
# timings-<phases>.txt with the seconds since the script began (the build's time is in the
# first): the measured times by which a session plans its calls (cuda/README.md).
pack() {
    echo "$(($(date +%s) - t0)) s  $1" >> "$R/timings-$tag.txt"
    tar czf "$archive.part" -C "$W" results && mv "$archive.part" "$archive" || status=1
}
{
    echo "commit: ${TGEMM_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)} $(git status --porcelain 2>/dev/null | grep -q . && echo '(with local changes)')"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "warnings as errors: $werror$([ $werror = no ] && echo ' (the -Werror build failed: see build-<phases>.log)')"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
    nvidia-smi
    nvcc --version
    build/tgemm-bench-cuda machine --device cuda
} > "$R/machine-$tag.txt" 2>&1
pack "build and machine record"

if has tests; then
    build/cuda/test_cuda > "$R/test_cuda.log" 2>&1 || status=1
    tail -n 15 "$R/test_cuda.log"
    build/cuda/single_header > "$R/single_header.log" 2>&1 || status=1
    tail -n 1 "$R/single_header.log"
    pack tests
fi

if has sanitizers; then
    san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for tool in memcheck racecheck initcheck; do
        extra="" only=""
        [ "$tool" = initcheck ] && extra="TGEMM_TEST_UNINIT_C=1"
        # racecheck watches our kernels only (their names contain tg__), on one case in eight: on the
        # H100 it got through neither all the small cases in 100 s with cuBLAS's kernels
        # instrumented too, nor in 45 s with ours alone.
        [ "$tool" = racecheck ] && only="--kernel-name kns=tg__" extra="TGEMM_TEST_EVERY=8"
        # TGEMM_SANITIZER_LIMIT=S stops each tool after S seconds (its log then ends unfinished and
        # the step fails): a short lease keeps its time for the phases after this one.
        env TGEMM_TEST_SMALL=1 $extra timeout "${TGEMM_SANITIZER_LIMIT:-0}" "$san" --tool "$tool" $only \
            --error-exitcode 3 build/cuda/test_cuda > "$R/sanitizer_$tool.log" 2>&1 || status=1
        summary=$(grep -E 'ERROR SUMMARY|passed, [0-9]+ failed' "$R/sanitizer_$tool.log" | tr '\n' ' ')
        echo "$tool: ${summary:-$(tail -n 2 "$R/sanitizer_$tool.log" | tr '\n' ' ')}"
        pack "sanitizer $tool"
    done
fi

# report.py on sweeps $R/<name>.json, each into $R/<name>/, against $CEIL. It needs
# matplotlib: the GPU machine's python3 has it; here Debian's /usr/bin/python3.
reports() {
    py=python3
    $py -c 'import matplotlib' 2> /dev/null || py=/usr/bin/python3
    for s in "$@"; do
        $py harness/report.py --sweep "$R/$s.json" --ceilings "$CEIL" --out "$R/$s" \
            > "$R/report_$s.log" 2>&1 || status=1
        tail -n 1 "$R/report_$s.log"
    done
    pack "reports: $*"
}

if has bench; then
    bench=build/tgemm-bench-cuda
    sh harness/tests/gpu_run.sh build > "$R/test_harness_cuda.log" 2>&1 || status=1
    echo "tgemm-bench GPU tests: $(tail -n 1 "$R/test_harness_cuda.log")"
    pack "tgemm-bench GPU tests"
    $bench ceilings --device cuda --force --out "$R/ceilings.json" 2> "$R/ceilings.log" || status=1
    tail -n 1 "$R/ceilings.log"
    pack ceilings
    ceil=""
    [ -f "$R/ceilings.json" ] && ceil="--ceilings $R/ceilings.json"
    # The ladder: every implementation; squares up to 8192 and the odd sizes where edge tiles live.
    # Two rounds of two repetitions: each round's workers fill the operands on the host again (a
    # second or more at 8192^3), repetitions inside a worker do not.
    $bench --device cuda --sizes 256:8192:x2,1000,4093 --rounds 2 --repetitions 2 $ceil \
        --out "$R/ladder.json" 2> "$R/ladder.log" || status=1
    tail -n 1 "$R/ladder.log"
    pack ladder
    $bench --device cuda --impl tgemm-cuda,cublas,cublas-tf32 --sizes linear $ceil \
        --out "$R/linear.json" 2> "$R/linear.log" || status=1
    tail -n 1 "$R/linear.log"
    pack linear
    reports ladder linear
    # The ladder table, last, so the reply's tail shows it.
    [ -f "$R/ladder/report.md" ] &&
        sed -n '/^## The SGEMM ladder/,/^### tgemm-cuda against cuBLAS/p' "$R/ladder/report.md" | grep '^|'
fi

if has crossover; then
    bench=build/tgemm-bench-cuda
    if ! has bench; then
        CEIL=$R/ceilings-crossover.json
        $bench ceilings --device cuda --force --out "$CEIL" 2> "$R/ceilings-crossover.log" || status=1
        tail -n 5 "$R/ceilings-crossover.log"
        pack ceilings-crossover
    fi
    ceil=""
    [ -f "$CEIL" ] && ceil="--ceilings $CEIL"
    # The crossover: the host CPU (all its cores) against the GPU alone and with its copies.
    $bench --device cuda --crossover --sizes 64:8192:x2 --rounds 2 --repetitions 2 $ceil \
        --out "$R/crossover_gemm.json" 2> "$R/crossover_gemm.log" || status=1
    tail -n 1 "$R/crossover_gemm.log"
    pack crossover_gemm
    $bench --device cuda --crossover --op add,axpy,activate:gelu_tanh --sizes 1e3:1e8:x10 \
        --rounds 2 --repetitions 2 $ceil --out "$R/crossover_ew.json" 2> "$R/crossover_ew.log" || status=1
    tail -n 1 "$R/crossover_ew.log"
    pack crossover_ew
    # Arrays of 256 MiB to 1 GiB (2^26 and 2^27 elements, fp32 and fp64), every kind of
    # operation, against the device copy measured in this run.
    $bench --device cuda --op add,scale,axpy,activate:gelu_tanh,bias_act:relu --dtype s,d \
        --sizes 2^26,2^27 --rounds 2 --repetitions 2 $ceil \
        --out "$R/elementwise.json" 2> "$R/elementwise.log" || status=1
    tail -n 1 "$R/elementwise.log"
    pack elementwise
    reports crossover_gemm crossover_ew elementwise
    # What the reply's tail should show: percent of the device copy, and the crossover tables.
    [ -f "$R/elementwise/report.md" ] &&
        grep '^| [a-z_:]* | [sd] | [0-9]' "$R/elementwise/report.md" | cut -d'|' -f2-9
    for s in crossover_gemm crossover_ew; do
        [ -f "$R/$s/report.md" ] &&
            sed -n '/^## CPU against GPU/,/^### Every case/p' "$R/$s/report.md" | grep '^| [a-z]' |
            grep -v '^| family'
    done
fi

pack end
cat "$R/timings-$tag.txt"
rm -rf "$W"
exit $status
