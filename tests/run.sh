#!/bin/sh
# Run every unit test binary and end-to-end script of a build; print cmocka's
# summaries and a closing "N passed, N failed" line. Exit 1 on any failure.
B=${1:-build}
export B
pass=0; fail=0; failed=""
log=$(mktemp)
for t in "$B"/tests/test_*; do
    [ -x "$t" ] || continue
    if CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
    grep -E '^\[ *(PASSED|FAILED) *\]|^\[  ERROR|^\[  FAILED  \] [a-z]' "$log" | sed "s|^|$(basename "$t"): |"
    n=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | head -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | head -1)
    pass=$((pass + ${n:-0})); fail=$((fail + ${f:-0}))
    if [ "$rc" != 0 ] && [ -z "$f" ]; then
        fail=$((fail + 1)); cat "$log"
    fi
    [ "$rc" != 0 ] && failed="$failed $(basename "$t")" && tail -30 "$log"
done
for s in tests/e2e/*.sh; do
    [ -f "$s" ] || continue
    name=$(basename "$s" .sh)
    if sh "$s" "$B" >"$log" 2>&1; then
        pass=$((pass + 1)); echo "e2e: ok   $name"
    else
        fail=$((fail + 1)); failed="$failed $name"; echo "e2e: FAIL $name"
        tail -40 "$log" | sed 's/^/    /'
    fi
done
rm -f "$log"
[ -n "$failed" ] && echo "failed:$failed"
echo "tests: $pass passed, $fail failed"
[ "$fail" = 0 ]
