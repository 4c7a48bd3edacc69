#!/bin/sh
# capture_calls.sh - libttcap single-thread recording checked with the reader:
# exact counts and nesting, recursion, longjmp, exit(), _exit() and _Exit()
# from deep inside, a vfork child's _exit(), small chunks, TTCAP_CLOCK=none,
# the sparse clock and TTCAP_CLOCK=every, TTCAP=1 naming, disabled mode,
# existing file.
B=$(cd "${1:-build}" && pwd) || exit 1
P=$B/fixtures/cap_calls
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -qx -- "$2" "$1" || { echo "FAIL: $1 lacks: $2"; fail=1; }; }
hasre() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }

# plain calls: main + 1000 x (leaf + chain_a -> b -> c -> leaf)
TTCAP_OUT=calls.trc "$P" calls 1000 || { echo "FAIL: calls run"; fail=1; }
"$CHK" calls.trc > calls.out || { echo "FAIL: check calls"; fail=1; }
# extended events besides calls: THREAD_START, one MODULE_LOAD per module, END
ext=$((2 + $(grep -c '^module ' calls.out)))
has calls.out "count thread=0 func=main enter=1 exit=1"
has calls.out "count thread=0 func=leaf enter=2000 exit=2000"
has calls.out "count thread=0 func=chain_a enter=1000 exit=1000"
has calls.out "count thread=0 func=chain_c enter=1000 exit=1000"
has calls.out "walk thread=0 events=$((10002 + ext)) open=0 maxdepth=5 nesting_errors=0 rc=0"
hasre calls.out "^header closed=1 exit=0 chunk=262144 ring=0 noclock=0"
hasre calls.out "^summary closed=1 crashed=0 events=$((10002 + ext)) lost=0 damaged=0"
hasre calls.out "^process pid=[0-9]* ppid=[0-9]* argc=3 exe=$P parent= exited=1 status=0"
hasre calls.out "^module .*path=$P\$"
has calls.out "end thread=0 status=0"
[ "$(stat -c %a calls.trc)" = 600 ] || { echo "FAIL: mode not 0600"; fail=1; }

# the same with libttcap.a linked into the program
TTCAP_OUT=static.trc "$B/fixtures/cap_static" calls 1000 || { echo "FAIL: static run"; fail=1; }
"$CHK" static.trc > static.out || { echo "FAIL: check static"; fail=1; }
has static.out "count thread=0 func=leaf enter=2000 exit=2000"
has static.out "count thread=0 func=chain_c enter=1000 exit=1000"
hasre static.out "^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0"
grep -q libttcap static.out && { echo "FAIL: static build loaded libttcap.so"; fail=1; }

# many small chunks: the function cache and time restart per chunk
TTCAP_OUT=small.trc TTCAP_CHUNK_KB=16 "$P" calls 20000 || fail=1
"$CHK" small.trc > small.out || fail=1
has small.out "count thread=0 func=leaf enter=40000 exit=40000"
has small.out "count thread=0 func=chain_b enter=20000 exit=20000"
hasre small.out "^walk thread=0 events=$((200002 + ext)) open=0 maxdepth=5 nesting_errors=0 rc=0"
hasre small.out "^summary closed=1 crashed=0 events=$((200002 + ext)) lost=0 damaged=0"
hasre small.out "^header closed=1 exit=0 chunk=16384 "

# recursion: fib(15) makes 2*fib(16)-1 = 1973 calls
TTCAP_OUT=fib.trc "$P" fib 15 > /dev/null || fail=1
"$CHK" fib.trc > fib.out || fail=1
has fib.out "count thread=0 func=fib enter=1973 exit=1973"
hasre fib.out "^walk thread=0 events=[0-9]* open=0 maxdepth=16 nesting_errors=0 rc=0"

# longjmp: 10 x 6 jump_deep enters, no exits; then leaf
TTCAP_OUT=jmp.trc "$P" longjmp 10 || fail=1
"$CHK" jmp.trc > jmp.out || fail=1
has jmp.out "count thread=0 func=jump_deep enter=60 exit=0"
has jmp.out "count thread=0 func=leaf enter=1 exit=1"
has jmp.out "end thread=0 status=0"

# exit(3) from 6 frames deep: END with the status, header closed
TTCAP_OUT=exit.trc "$P" exit 5; [ $? = 3 ] || { echo "FAIL: exit status"; fail=1; }
"$CHK" exit.trc > exit.out || fail=1
has exit.out "count thread=0 func=exit_deep enter=6 exit=0"
has exit.out "end thread=0 status=3"
hasre exit.out "^header closed=1 exit=3 "

# _exit(5) / _Exit(5) from 6 frames deep: closed just like exit()
for how in _exit _Exit; do
    TTCAP_OUT=$how.trc "$P" $how 5; [ $? = 5 ] || { echo "FAIL: $how status"; fail=1; }
    "$CHK" $how.trc > $how.out || { echo "FAIL: check $how"; fail=1; }
    has $how.out "count thread=0 func=quick_exit_deep enter=6 exit=0"
    has $how.out "end thread=0 status=5"
    hasre $how.out "^header closed=1 exit=5 "
    hasre $how.out "^process .* exited=1 status=5"
    hasre $how.out "^summary closed=1 crashed=0 .* lost=0 damaged=0 "
    "$B/ttdump" $how.trc > $how.dump 2>&1 || { echo "FAIL: ttdump $how"; fail=1; }
    grep -q -- "-- end: exit status 5\$" $how.dump || { echo "FAIL: ttdump $how: no end"; fail=1; }
done
# a vfork child's _exit(7) must leave the parent's trace alone: the parent
# goes on tracing and ends it with its own exit status
TTCAP_OUT=vfork.trc "$P" vfork 100 > vfork.stdout || { echo "FAIL: vfork run"; fail=1; }
has vfork.stdout "child 7"
"$CHK" vfork.trc > vfork.out || { echo "FAIL: check vfork"; fail=1; }
has vfork.out "count thread=0 func=vfork_child enter=1 exit=1"
has vfork.out "count thread=0 func=leaf enter=100 exit=100"
has vfork.out "end thread=0 status=0"
[ "$(grep -c '^end ' vfork.out)" = 1 ] || { echo "FAIL: vfork: not one END"; fail=1; }
hasre vfork.out "^header closed=1 exit=0 "

# order only
TTCAP_OUT=none.trc TTCAP_CLOCK=none "$P" calls 1000 || fail=1
"$CHK" none.trc > none.out || fail=1
hasre none.out "^header closed=1 exit=0 chunk=262144 ring=0 noclock=1"
has none.out "count thread=0 func=leaf enter=2000 exit=2000"
has none.out "walk thread=0 events=$((10002 + ext)) open=0 maxdepth=5 nesting_errors=0 rc=0"
# a clean end cuts the file after its last record: the same calls without
# their time deltas take fewer bytes, and both far less than a chunk slot
t=$(stat -c %s calls.trc)
n=$(stat -c %s none.trc)
[ "$n" -lt "$t" ] || { echo "FAIL: untimed trace $n B not smaller than timed $t B"; fail=1; }
[ "$t" -lt $((4096 + 262144)) ] || { echo "FAIL: timed trace $t B not cut after its data"; fail=1; }

# the sparse clock (TTCAP_CLOCK=sparse, format 1.4): 250001 calls, most
# EXITs past the thread's first 4096 untimed, at most 1.15 clock reads per
# call; times never go back nor past their bound; ttdump marks exactly the
# untimed returns ("~"). The lazy clock (TTCAP_CLOCK=lazy, format 1.7):
# the ENTERs after untimed EXITs untimed too, below 0.8 clock reads per
# call, ttdump marks exactly the untimed calls and returns; the chain
# clock below. TTCAP_CLOCK=every: all timed, none marked.
clock_reads() { # trace: "hot untimed" of thread 0, checked
    "$CHK" "$1" > "$1.out" || { echo "FAIL: check $1"; fail=1; }
    hasre "$1.out" "^clock thread=0 hot=500002 untimed=[0-9]* backwards=0 past_bound=0\$"
    sed -n 's/^clock thread=0 hot=\([0-9]*\) untimed=\([0-9]*\) .*/\1 \2/p' "$1.out"
}
TTCAP_OUT=sparse.trc TTCAP_CLOCK=sparse "$P" calls 50000 || fail=1
set -- $(clock_reads sparse.trc) 0 0
[ $((200 * ($1 - $2))) -le $((115 * $1)) ] && [ "$2" -gt 0 ] ||
    { echo "FAIL: sparse clock: $(($1 - $2)) clock reads for $(($1 / 2)) calls"; fail=1; }
"$B/ttdump" sparse.trc > sparse.dump || { echo "FAIL: ttdump sparse.trc"; fail=1; }
grep -q '^  required features: 0xd (events-v1, sites, sparse)$' sparse.dump ||
    { echo "FAIL: sparse.trc is not format 1.4 with the sparse bit"; fail=1; }
# ttdump marks each untimed return's (placed) time with "~", and no other line
u=$(grep -c '^ *~+[0-9]*\.[0-9]*us *< ' sparse.dump)
[ "$u" = "$2" ] || { echo "FAIL: ttdump marks $u returns untimed, the trace has $2"; fail=1; }
TTCAP_OUT=lazy.trc TTCAP_CLOCK=lazy "$P" calls 50000 || fail=1
set -- $(clock_reads lazy.trc) 0 0
[ $((100 * ($1 - $2))) -le $((80 * $1 / 2)) ] && [ "$2" -gt 0 ] ||
    { echo "FAIL: lazy clock: $(($1 - $2)) clock reads for $(($1 / 2)) calls"; fail=1; }
lazy_reads=$(($1 - $2))
"$B/ttdump" lazy.trc > lazy.dump || { echo "FAIL: ttdump lazy.trc"; fail=1; }
grep -q '^  version: *1\.7$' lazy.dump && grep -q '^  required features: 0x2d (events-v1, sites, sparse, lazy)$' lazy.dump ||
    { echo "FAIL: lazy.trc is not format 1.7 with the lazy bit"; fail=1; }
u=$(grep -c '^ *~+[0-9]*\.[0-9]*us *[<>] ' lazy.dump)
e=$(grep -c '^ *~+[0-9]*\.[0-9]*us *> ' lazy.dump)
[ "$u" = "$2" ] && [ "$e" -gt 0 ] ||
    { echo "FAIL: ttdump marks $u calls and returns untimed ($e calls), the trace has $2"; fail=1; }
# the chain clock (the default, format 1.9): the ENTERs after untimed
# ENTERs untimed too: chain_a -> b -> c -> leaf reads about as seldom as
# the leaf loop, fewer reads than the lazy clock, below 0.4 per call
TTCAP_OUT=chain.trc "$P" calls 50000 || fail=1
set -- $(clock_reads chain.trc) 0 0
[ $((100 * ($1 - $2))) -le $((40 * $1 / 2)) ] && [ "$2" -gt 0 ] &&
    [ $((10 * ($1 - $2))) -le $((7 * lazy_reads)) ] ||
    { echo "FAIL: chain clock: $(($1 - $2)) clock reads for $(($1 / 2)) calls (lazy $lazy_reads)"; fail=1; }
"$B/ttdump" chain.trc > chain.dump || { echo "FAIL: ttdump chain.trc"; fail=1; }
grep -q '^  version: *1\.9$' chain.dump &&
    grep -q '^  required features: 0xad (events-v1, sites, sparse, lazy, lazy-chain)$' chain.dump ||
    { echo "FAIL: chain.trc is not format 1.9 with the lazy-chain bit"; fail=1; }
u=$(grep -c '^ *~+[0-9]*\.[0-9]*us *[<>] ' chain.dump)
# an untimed call right after an untimed call: chain_b inside chain_a's
e=$(awk '/^ *~\+[0-9]*\.[0-9]*us *> / { n += prev } { prev = /^ *~\+[0-9]*\.[0-9]*us *> / } END { print n + 0 }' chain.dump)
[ "$u" = "$2" ] && [ "$e" -gt 1000 ] ||
    { echo "FAIL: ttdump marks $u calls and returns untimed ($e calls inside untimed calls), the trace has $2"; fail=1; }
TTCAP_OUT=every.trc TTCAP_CLOCK=every "$P" calls 50000 || fail=1
set -- $(clock_reads every.trc) 0 0
[ "$2" = 0 ] || { echo "FAIL: TTCAP_CLOCK=every left $2 EXITs untimed"; fail=1; }
"$B/ttdump" every.trc | grep -q '~+' && { echo "FAIL: ttdump marks a time of every.trc"; fail=1; }

# TTCAP=1: <prog>.<pid>.trc in the cwd; %e and %p in TTCAP_OUT
TTCAP=1 "$P" calls 10 || fail=1
n=$(ls cap_calls.*.trc 2>/dev/null | wc -l)
[ "$n" = 1 ] || { echo "FAIL: TTCAP=1 made $n files"; fail=1; }
TTCAP_OUT=x-%e-%p.trc "$P" calls 10 || fail=1
ls x-cap_calls-*.trc > /dev/null 2>&1 || { echo "FAIL: %e/%p"; fail=1; }

# disabled: nothing written, program runs
mkdir off && (cd off && env -u TTCAP_OUT -u TTCAP "$P" calls 100) || fail=1
[ -z "$(ls off)" ] || { echo "FAIL: disabled mode wrote files"; fail=1; }

# an existing file is left byte-identical; the program runs untraced
printf 'precious\n' > keep.trc
cp keep.trc keep.orig
TTCAP_OUT=keep.trc "$P" calls 100 2> keep.err || { echo "FAIL: run with existing file"; fail=1; }
cmp -s keep.trc keep.orig || { echo "FAIL: existing file changed"; fail=1; }
grep -q "^ttcap: cannot create trace '.*keep.trc': File exists; running untraced\$" keep.err ||
    { echo "FAIL: message"; cat keep.err; fail=1; }
[ "$(wc -l < keep.err)" = 1 ] || { echo "FAIL: one line expected"; fail=1; }
# an unwritable place: also one line and a normal run
TTCAP_OUT=/nonexistent/dir/x.trc "$P" calls 10 2> bad.err || fail=1
grep -q "^ttcap: cannot create trace '/nonexistent/dir/x.trc': No such file" bad.err ||
    { echo "FAIL: message"; cat bad.err; fail=1; }
exit $fail
