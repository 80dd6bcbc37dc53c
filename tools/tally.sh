#!/bin/sh
# Runs each test suite (a make target) in turn, passes its output through, and ends with one line
# that adds up their closing "N passed, N failed[, N skipped]" lines. A suite that exits non-zero
# without counting a failure, or ends without such a line, counts as one failure, so a crash can
# never look like a pass. Exits non-zero if anything failed.
# usage: tally.sh MAKE target...
make_cmd=$1; shift
passed=0; failed=0; skipped=0; broken=""
log=$(mktemp); rcf=$(mktemp)
trap 'rm -f "$log" "$rcf"' EXIT
line='^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'
for t in "$@"; do
    echo "== $t"
    { $make_cmd --no-print-directory -s "$t" 2>&1; echo $? > "$rcf"; } | tee "$log"
    status=$(grep -E "$line" "$log" | tail -n 1)
    if [ -z "$status" ]; then
        broken="$broken $t"; failed=$((failed + 1)); continue
    fi
    p=$(echo "$status" | grep -oE '[0-9]+ passed' | cut -d' ' -f1)
    f=$(echo "$status" | grep -oE '[0-9]+ failed' | cut -d' ' -f1)
    s=$(echo "$status" | grep -oE '[0-9]+ skipped' | cut -d' ' -f1)
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
    if [ "$(cat "$rcf")" != 0 ] && [ "$f" -eq 0 ]; then broken="$broken $t"; failed=$((failed + 1)); fi
done
[ -n "$broken" ] && echo "suites that failed without counting a failure (one failure each):$broken"
if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ "$failed" -eq 0 ]
