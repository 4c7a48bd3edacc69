#!/bin/sh
# values_procs.sh - values mode with threads (one leaves by pthread_exit
# three traced frames deep), fork three frames deep (the child's trace has
# the EXITs of the frames it returns through, with its own values), vfork +
# exec of a traced image, a dlopen'd -pg library, and a program mixing a
# -pg and a -finstrument-functions object.
. "$(dirname "$0")/values_lib.inc"

rec t.trc "$F/val_threads"
has '^total=4498503 after=9009$' t.trc.out
"$BD/tests/capture_check" "$T/t.trc" > chk || fail "capture_check threads"
count '^count thread=[1-4] func=work enter=1000 exit=1000$' chk 4
has '^count thread=[1-4] func=quit3 enter=1 exit=0$' chk
count '^walk thread=[0-4] events=[0-9]* open=0 maxdepth=2 nesting_errors=0 rc=0$' chk 4
has '^walk thread=[1-4] events=[0-9]* open=4 maxdepth=4 nesting_errors=0 rc=0$' chk
count '^thread idx=[1-4] .* ended=1 ' chk 4
ev t.trc
has '< work = 3999$' t.trc.ev
has '< work = 9009$' t.trc.ev

rec f.trc "$F/val_fork"
has '^parent=-3 vfork_exec=9 work=14$' f.trc.out
ev f.trc
has '^      < forker = -3$' f.trc.ev
has '^  < f1 = -3$' f.trc.ev
has '^  < vforker = 9$' f.trc.ev
n=0
for c in f.trc.*[0-9]; do
    [ -f "$c" ] || continue
    ev "$c"
    if grep -q '< forker = 3$' "$c.ev"; then
        has '^  < f1 = 3$' "$c.ev"
        has '^  > child_work(3)$' "$c.ev"
        has '^  < child_work = 21$' "$c.ev"
        n=$((n + 1))
    elif grep -q 'exit status 9' "$c.ev"; then
        has '^  < child_work = 42$' "$c.ev"
        has '^< main = 9$' "$c.ev"
        n=$((n + 1))
    fi
done
[ "$n" = 2 ] || { ls; fail "want the fork child's and the exec'd image's traces, found $n"; }

rec d.trc "$F/val_dlopen" "$F/val_plugin.so"
has '^plugin=20$' d.trc.out
ev d.trc
has '^    > plug_entry(4)$' d.trc.ev
has '^      > plug_mul(4, 5)$' d.trc.ev
has '^      < plug_mul = 20$' d.trc.ev
has '^  < host = 20$' d.trc.ev

rec m.trc "$F/val_mixed"
has '^mixed=31$' m.trc.out
ev m.trc
has '^  > pg_outer(1)$' m.trc.ev
has '^    > inst_mid(1)$' m.trc.ev   # no values: arguments as at the last ENTER
has '^      > pg_leaf(3)$' m.trc.ev
has '^      < pg_leaf = 30$' m.trc.ev
has '^    < inst_mid = 0$' m.trc.ev
has '^  < pg_outer = 31$' m.trc.ev
echo "ok: threads, pthread_exit, fork, vfork + exec, dlopen, mixed modes"
