# What the harness's test scripts share, sourced by each: the Python that reads JSON (Debian's
# /usr/bin/python3, whose standard library is all they use: the python3 first on the PATH may be
# another interpreter), a scratch folder removed on exit, and the tally (ok, bad, skip, check) that
# each script prints at its end as "N passed, N failed".
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
passed=0
failed=0
skipped=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
skip() { echo "skip $1"; skipped=$((skipped + $2)); }
check() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }
