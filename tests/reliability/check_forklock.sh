#!/bin/sh
# check_forklock.sh - reliability check (i): fork while another thread of
# the traced program holds glibc's environment lock (setenv/putenv loop) or
# the loader's locks (dlopen/dlclose loop). libttcap's fork handler may do
# only async-signal-safe work in the child: every child must finish within
# its deadline (3 s), traced, and its trace must read back whole (100
# leaf() calls, a clean end). $2 = forks per lock (50 full, 10 short).
B=$(cd "$1" && pwd); N=${2:-50}
P=$B/rel/rel_forklock; CHK=$B/tests/capture_check
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
bad=""; fig=""
# LeakSanitizer's check at a child's exit (make asan) stops the world with
# ptrace and hangs or reports false leaks in a fork child of a threaded
# process, with or without libttcap: it is off here (ASan itself stays on)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
for mode in env dl; do
    rm -f "$d"/*.trc
    out=$(TTCAP_OUT="$d/f.%p.trc" timeout 600 "$P" $mode "$N" 2>"$d/err")
    fig="$fig $mode: ${out:-no output}"
    [ "$out" = "forks=$N finished=$N traced=$N hung=0" ] || bad="$bad $mode:[$out]"
    whole=0
    for f in "$d"/f.*.trc; do
        [ -f "$f" ] || continue
        "$CHK" "$f" > "$d/chk" 2>&1 || continue
        grep -q '^process .*parent=/' "$d/chk" || continue      # the children
        grep -q '^count thread=0 func=leaf enter=100 exit=100' "$d/chk" &&
            grep -q '^summary closed=1' "$d/chk" && whole=$((whole + 1))
    done
    fig="$fig, $whole child traces whole;"
    [ "$whole" = "$N" ] || bad="$bad $mode:$whole-of-$N-child-traces-whole"
    [ -s "$d/err" ] && bad="$bad $mode:stderr:$(head -c 200 "$d/err" | tr '\n' ' ')"
done
ok=ok; [ -z "$bad" ] || ok=FAIL
echo "RESULT i. fork while threads hold libc/loader locks ($N forks each)|$(echo "${fig%;}" | sed "s/^ *//")${bad:+; problems:$bad}|$ok"
[ $ok = ok ]
