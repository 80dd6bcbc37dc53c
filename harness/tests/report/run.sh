#!/bin/sh
# The report generator's tests (make test-report): harness/report.py run on the fixed fixtures
# (fixture_sweep.json, fixture_ceilings.json, the elementwise fixture_ew*.json; the GPU ones,
# fixture_gpu_*.json and fixture_crossover_sweep.json, made by make_gpu_fixture.py) into OUT, never
# into results/; its files and numbers checked by check_report.py; the edge cases (no ceilings
# file, --results folder, unreadable input);
# then report.html opened in headless Chromium: every chart must decode with a non-zero size and a
# screenshot of the page must not be blank. Each browser check is first shown to fail on a planted
# fault (a spoiled chart, a blank page), so it cannot pass by default. Without chromium the browser
# checks are counted as skipped. Ends with "N passed, N failed[, N skipped]".
# Python is Debian's /usr/bin/python3, the interpreter that sees python3-matplotlib.
# usage: sh harness/tests/report/run.sh OUT
OUT=${1:-build/report-test}
PY=/usr/bin/python3
HERE=harness/tests/report
REPORT="$PY harness/report.py"
CHECK="$PY $HERE/check_report.py"
passed=0
failed=0
skipped=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
rm -rf "$OUT"
mkdir -p "$OUT"

# ---- the report from the fixtures ----
$REPORT --sweep $HERE/fixture_sweep.json --ceilings $HERE/fixture_ceilings.json --out "$OUT/full" \
    > "$OUT/report.log" 2>&1
check $? "report.py on the fixtures exits 0 ($(tail -n 1 "$OUT/report.log"))"
$CHECK outputs "$OUT/full" > "$OUT/check.log" 2>&1
cat "$OUT/check.log"
passed=$((passed + $(grep -c '^ok ' "$OUT/check.log")))
failed=$((failed + $(grep -c '^FAIL ' "$OUT/check.log")))
grep -qE '^(ok|FAIL) ' "$OUT/check.log" || bad "check_report.py printed no checks"

# ---- an elementwise sweep (tgemm-bench --op): its own section, numbers checked ----
$REPORT --sweep $HERE/fixture_ew_sweep.json --ceilings $HERE/fixture_ceilings.json \
    --out "$OUT/elementwise" > "$OUT/report-ew.log" 2>&1
check $? "report.py on the elementwise fixture exits 0 ($(tail -n 1 "$OUT/report-ew.log"))"
$CHECK outputs-ew "$OUT/elementwise" > "$OUT/check-ew.log" 2>&1
cat "$OUT/check-ew.log"
passed=$((passed + $(grep -c '^ok ' "$OUT/check-ew.log")))
failed=$((failed + $(grep -c '^FAIL ' "$OUT/check-ew.log")))
grep -qE '^(ok|FAIL) ' "$OUT/check-ew.log" || bad "check_report.py outputs-ew printed no checks"
# ... with the STREAM references in the same sweep: each case against the better of them
$REPORT --sweep $HERE/fixture_ew_stream_sweep.json --ceilings $HERE/fixture_ceilings.json \
    --out "$OUT/elementwise-stream" > "$OUT/report-ew-stream.log" 2>&1
check $? "report.py on the elementwise fixture with references exits 0 ($(tail -n 1 "$OUT/report-ew-stream.log"))"
$CHECK outputs-ew-stream "$OUT/elementwise-stream" > "$OUT/check-ew-stream.log" 2>&1
cat "$OUT/check-ew-stream.log"
passed=$((passed + $(grep -c '^ok ' "$OUT/check-ew-stream.log")))
failed=$((failed + $(grep -c '^FAIL ' "$OUT/check-ew-stream.log")))
grep -qE '^(ok|FAIL) ' "$OUT/check-ew-stream.log" || bad "check_report.py outputs-ew-stream printed no checks"
$REPORT --sweep $HERE/fixture_ew_sweep.json --out "$OUT/elementwise-bare" > /dev/null 2>&1
rc=$?
grep -q "has no STREAM probes" "$OUT/elementwise-bare/report.md" 2>/dev/null &&
    grep -q "| add | s | 134217728 | 1536 | 2 | tgemm | 36 ±2.0% | 90 |" \
        "$OUT/elementwise-bare/report.md"
check $((rc + $?)) "elementwise without a ceilings file: exit $rc, the gap stated, the sweep's own percents kept"

# ---- a GPU sweep (tgemm-bench --device cuda): the GPU record, its ceilings, the ladder tables ----
$REPORT --sweep $HERE/fixture_gpu_sweep.json --ceilings $HERE/fixture_gpu_ceilings.json \
    --out "$OUT/gpu" > "$OUT/report-gpu.log" 2>&1
check $? "report.py on the GPU fixtures exits 0 ($(tail -n 1 "$OUT/report-gpu.log"))"
$CHECK gpu "$OUT/gpu" > "$OUT/check-gpu.log" 2>&1
cat "$OUT/check-gpu.log"
passed=$((passed + $(grep -c '^ok ' "$OUT/check-gpu.log")))
failed=$((failed + $(grep -c '^FAIL ' "$OUT/check-gpu.log")))
grep -qE '^(ok|FAIL) ' "$OUT/check-gpu.log" || bad "check_report.py gpu printed no checks"
# ... its elementwise cases (--op) against the device copy, and a crossover sweep (--crossover)
for kind in gpu-ew crossover; do
    fixture=$HERE/fixture_gpu_ew_sweep.json
    [ $kind = crossover ] && fixture=$HERE/fixture_crossover_sweep.json
    $REPORT --sweep "$fixture" --ceilings $HERE/fixture_gpu_ceilings.json --out "$OUT/$kind" \
        > "$OUT/report-$kind.log" 2>&1
    check $? "report.py on the $kind fixture exits 0 ($(tail -n 1 "$OUT/report-$kind.log"))"
    $CHECK $kind "$OUT/$kind" > "$OUT/check-$kind.log" 2>&1
    cat "$OUT/check-$kind.log"
    passed=$((passed + $(grep -c '^ok ' "$OUT/check-$kind.log")))
    failed=$((failed + $(grep -c '^FAIL ' "$OUT/check-$kind.log")))
    grep -qE '^(ok|FAIL) ' "$OUT/check-$kind.log" || bad "check_report.py $kind printed no checks"
done
! grep -q "SGEMM ladder" "$OUT/full/report.md"
check $? "a CPU sweep's report has no GPU ladder section"

# ---- without a ceilings file: still a report, and it says what is missing ----
$REPORT --sweep $HERE/fixture_sweep.json --out "$OUT/bare" > /dev/null 2>&1
rc=$?
charts=$(ls "$OUT/bare"/*.png 2>/dev/null | wc -l)
grep -q "No ceilings file was found" "$OUT/bare/report.md" 2>/dev/null
check $((rc + $? + (charts != 4))) "no ceilings: exit $rc, $charts charts (4 expected), the gap stated"

# ---- --results DIR (what make report runs): newest sweep JSON in, report out, same folder ----
mkdir -p "$OUT/results/fixture"
cp $HERE/fixture_ceilings.json "$OUT/results/fixture/ceilings.json"
cp $HERE/fixture_sweep.json "$OUT/results/fixture/sweep-old.json"
touch -d '2020-01-01' "$OUT/results/fixture/sweep-old.json"
sed 's/"commit": "0123456789ab"/"commit": "newest-sweep"/' $HERE/fixture_sweep.json \
    > "$OUT/results/fixture/sweep.json"
$REPORT --results "$OUT/results/fixture" > /dev/null 2>&1
rc=$?
grep -q "| commit | newest-sweep |" "$OUT/results/fixture/report.md" 2>/dev/null
check $((rc + $?)) "--results: exit $rc, report from the newest sweep JSON, written beside it"

# ---- unreadable input: exit 2 with a message, nothing written ----
$REPORT --sweep "$OUT/missing.json" --out "$OUT/none" > /dev/null 2> "$OUT/err"
rc=$?
[ "$rc" = 2 ] && grep -q "cannot read" "$OUT/err" && [ ! -e "$OUT/none/report.md" ]
check $? "missing sweep: exit $rc ($(head -n 1 "$OUT/err"))"
echo '{"context": {}, "benchmarks": [' > "$OUT/broken.json"
$REPORT --sweep "$OUT/broken.json" --out "$OUT/none" > /dev/null 2> "$OUT/err"
rc=$?
[ "$rc" = 2 ] && [ ! -e "$OUT/none/report.md" ]
check $? "truncated sweep JSON: exit $rc ($(head -n 1 "$OUT/err"))"

# ---- headless Chromium ----
CHROME=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROME" ] || [ ! -f "$OUT/full/report.html" ]; then
    echo "skip browser checks: $( [ -z "$CHROME" ] && echo 'chromium is not installed (apt-get install -y chromium)' || echo 'no report.html')"
    skipped=$((skipped + 4))
else
    browse() { # out-file chromium-args...
        o=$1
        shift
        timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars \
            --user-data-dir="$OUT/chrome-profile" "$@" > "$o" 2> "$OUT/chrome.err"
    }
    url() { echo "file://$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
    for mode in good broken; do
        flag=$([ $mode = broken ] && echo --break-first)
        $CHECK inject "$OUT/full/report.html" "$OUT/page-$mode.html" $flag
        browse "$OUT/dom-$mode.html" --virtual-time-budget=5000 --dump-dom "$(url "$OUT/page-$mode.html")"
        result=$(sed -n 's/.*<pre id="tg-image-check">\([^<]*\)<.*/\1/p' "$OUT/dom-$mode.html")
        if [ $mode = good ]; then
            [ "$result" = "images 5 broken 0" ]
            check $? "Chromium: every chart of report.html decodes with a non-zero size ($result)"
        else
            [ "$result" = "images 5 broken 1" ]
            check $? "Chromium: the check catches a planted broken chart ($result)"
        fi
    done
    browse /dev/null --window-size=1280,2400 --screenshot="$OUT/shot.png" "$(url "$OUT/full/report.html")"
    $CHECK nonblank "$OUT/shot.png"
    check $? "Chromium: a screenshot of report.html is not blank"
    echo '<!DOCTYPE html><html><body></body></html>' > "$OUT/blank.html"
    browse /dev/null --window-size=1280,2400 --screenshot="$OUT/blank.png" "$(url "$OUT/blank.html")"
    if [ -f "$OUT/blank.png" ] && ! $CHECK nonblank "$OUT/blank.png"; then
        ok "the blank-screenshot check catches a blank page"
    else
        bad "the blank-screenshot check passed a blank page (or Chromium made no screenshot)"
    fi
fi

if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ "$failed" -eq 0 ]
