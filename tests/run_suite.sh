#!/bin/sh
# Runs one test binary once per setting and ends with one line adding up their tallies.
#
# The library reads TGEMM_ARCH, TGEMM_PATH and TGEMM_MC/KC/NC once per process, so every kernel
# family, path and block-size setting needs its own run. Each SPEC is one run: its words with an "="
# are environment settings, the others the binary's arguments (sections, options), e.g.
#     tests/run_suite.sh build/test/tgemm_tests "TGEMM_ARCH=generic TGEMM_PATH=small cube threads"
# A run that crashes, hangs (killed after TGT_TIMEOUT seconds, default 300: a normal run takes
# seconds), or ends without its "N passed, N failed" line counts as one failure, so none of these
# can look like a pass or stall `make test`.
#
# With --expect-failure the binary is a build with a planted bug and every run must FAIL: each run
# that fails counts as a pass ("planted bug caught", with its first failure lines), each run that
# passes as a failure. That proves the tests can see the bug, on every setting given.
#
# With --skipped N the closing line also counts N suites skipped (settings this CPU cannot run,
# named by the caller), so that the tally shows them.
#
# usage: run_suite.sh [--expect-failure] [--skipped N] BINARY SPEC...
# Threads that sleep at OpenMP barriers instead of spinning: the tests run 3 threads on shared cores
# and tiny blocks put a barrier every few microseconds, where spinning makes a run crawl. It changes
# no result (those do not depend on scheduling).
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}; export OMP_WAIT_POLICY
expect_failure=0; skipped=0
while :; do
    case $1 in
        --expect-failure) expect_failure=1; shift ;;
        --skipped) skipped=$2; shift 2 ;;
        *) break ;;
    esac
done
bin=$1; shift
passed=0; failed=0
log=$(mktemp); rcf=$(mktemp)
trap 'rm -f "$log" "$rcf"' EXIT
line='^[0-9]+ passed, [0-9]+ failed$'
for spec in "$@"; do
    envs=""; args=""
    for w in $spec; do
        case $w in *=*) envs="$envs $w" ;; *) args="$args $w" ;; esac
    done
    echo "-- $spec"
    # shellcheck disable=SC2086 # word splitting of envs and args is the point
    { timeout "${TGT_TIMEOUT:-300}" env $envs "$bin" $args > "$log" 2>&1; echo $? > "$rcf"; }
    if [ "$expect_failure" = 1 ]; then
        grep '^FAIL' "$log" | head -n 3
    else
        grep -v '^tgemm tests:' "$log"
    fi
    status=$(grep -E "$line" "$log" | tail -n 1)
    p=$(echo "$status" | grep -oE '^[0-9]+'); p=${p:-0}
    f=$(echo "$status" | grep -oE '[0-9]+ failed' | cut -d' ' -f1); f=${f:-0}
    if [ -z "$status" ] || { [ "$(cat "$rcf")" != 0 ] && [ "$f" -eq 0 ]; }; then
        echo "run crashed, hung or ended without a tally (exit status $(cat "$rcf")): $spec"
        f=$((f + 1))
    fi
    if [ "$expect_failure" = 1 ]; then
        if [ "$f" -gt 0 ]; then echo "planted bug caught ($f failures)"; passed=$((passed + 1))
        else echo "planted bug NOT caught: all $p checks passed"; failed=$((failed + 1)); fi
    else
        passed=$((passed + p)); failed=$((failed + f))
    fi
done
if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ "$failed" -eq 0 ]
