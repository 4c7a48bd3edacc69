#!/bin/sh
# capture_sigfork.sh - fork() from a SIGALRM handler that interrupts the
# main thread's tight loop of traced calls, so most forks land inside one
# of libttcap's hooks (issue #37.1). Every child must exit 0 (no SIGSEGV
# when it returns into the interrupted hook), and every child's trace must
# be its own and closed cleanly: END, after_return() 20 times, no damage;
# the parent's trace must not be damaged by its children. Also in values
# mode (the same program built -pg -mfentry) where it is built; and with
# the children calling _exit(0) in the handler (never back in the hook):
# their traces must still be their own, closed, with END.
# Every child that returns walks the modules (dl_iterate_phdr) itself
# before it exits, under a 10 s alarm. The loader parts (cap_sigfork dl)
# raise the signal from inside libttcap's own walk of the modules (at
# every chunk switch), the loader's lock held, where the itimer hit it
# only now and then: under ASan, in one run of 1000 forks in five, and
# the child then hung for ever in the leak check's walk at exit, the
# parent waiting for it (libttcap now walks with signals blocked). The
# loader_thread parts (cap_sigfork dlthread): another thread forks while
# the main thread is inside libttcap's walk; before libttcap's fork
# handler waited for its walks to end, every child died by the alarm.
# $2 = forks per run (100 full).
B=$(cd "${1:-build}" && pwd) || exit 1
N=${2:-100}
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_sigfork.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
fail=0
run() {     # run NAME PROGRAM [exit|dl|dlthread]
    mkdir "$d/$1" || exit 1
    out=$(cd "$d/$1" && TTCAP_OUT=s.%p.trc timeout 300 "$2" "$N" ${3:-})
    calls='^count thread=0 func=after_return enter=20 exit=20$'
    [ "${3:-}" = exit ] && calls='^process .* exited=1 status=0$'
    case "$out" in
    "forks="*" crashed=0 other=0") ;;
    *) echo "FAIL: $1: ${out:-no output} (children crashed)"; fail=1 ;;
    esac
    forks=${out#forks=}; forks=${forks%% *}
    kids=0; bad=0
    # every trace read by one capture_check (-m): a sanitizer build starts
    # once, not a thousand times; its facts split into one file a trace
    mkdir "$d/$1.c" || exit 1
    "$CHK" -m "$d/$1"/s.*.trc 2>&1 | awk -v dir="$d/$1.c" '
        /^file / { if (out) close(out); f = $2; sub(".*/", "", f); out = dir "/" f; next }
        out { print > out }'
    for f in "$d/$1"/s.*.trc; do
        chk=$d/$1.c/${f##*/}
        [ "$(grep '^rc ' "$chk" 2>/dev/null)" = "rc 0" ] ||
            { echo "FAIL: $1: capture_check $f"; fail=1; continue; }
        if ! grep -q '^process .*parent=/' "$chk"; then
            grep -q '^summary closed=1 crashed=0 .* damaged=0 chunks=[0-9]* notices=0$' "$chk" ||
                { echo "FAIL: $1: parent trace damaged:"; grep '^summary\|^notice' "$chk"; fail=1; }
            continue
        fi
        kids=$((kids + 1))
        grep -q '^summary closed=1 crashed=0 .* damaged=0 ' "$chk" &&
            grep -q '^end thread=0 status=0$' "$chk" &&
            grep -q "$calls" "$chk" &&
            grep -q 'nesting_errors=0 rc=0$' "$chk" && continue
        bad=$((bad + 1))
        [ $bad -le 2 ] && { echo "FAIL: $1: child trace $f:"; grep -v '^ev \|^module ' "$chk"; }
    done
    [ "$kids" = "$forks" ] || { echo "FAIL: $1: $kids child traces for $forks forks"; fail=1; }
    [ $bad = 0 ] || { echo "FAIL: $1: $bad of $kids child traces not whole and closed"; fail=1; }
    echo "$1: forks=$forks child traces whole and closed: $((kids - bad))"
}
run plain "$B/fixtures/cap_sigfork"
run plain_exit "$B/fixtures/cap_sigfork" exit
run loader "$B/fixtures/cap_sigfork" dl
run loader_thread "$B/fixtures/cap_sigfork" dlthread
if [ -x "$B/fixtures/pg/cap_sigfork" ]; then
    run values "$B/fixtures/pg/cap_sigfork"
    run loader_values "$B/fixtures/pg/cap_sigfork" dl
    run loader_thread_values "$B/fixtures/pg/cap_sigfork" dlthread
else
    echo "SKIP part: values mode (x86-64 only)"
fi
exit $fail
