#!/bin/sh
# bench_store.sh - what the build-id store costs: bytes kept per build and
# start-up cost of a traced run with TTCAP_STORE=none, with the copy already
# kept (one stat per instrumented module), and with a fresh store (the copy
# made): the process's CPU time (user+system) when main starts, which holds
# the loader and libttcap's start and is less at the mercy of a loaded
# machine than wall time. Two programs: a small one and one of 3000
# functions. Medians of interleaved runs; the load is printed with them.
set -eu
B=$(cd "${1:-build}" && pwd)
R=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=${N:-41}
cd "$T"

make_prog() {   # $1 name, $2 number of functions
    {
        echo '#include <stdio.h>'
        echo '#include <time.h>'
        i=0
        while [ "$i" -lt "$2" ]; do
            echo "int f$i(int x); int f$i(int x) { return x * $i + (x >> 3); }"
            i=$((i + 1))
        done
        echo 'int main(void) { struct timespec ts; int s = 0;'
        echo '  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);'
        echo '  fprintf(stderr, "%ld\\n", ts.tv_sec * 1000000L + ts.tv_nsec / 1000);'
        echo "  s += f0(1) + f$(($2 - 1))(2);"
        echo '  printf("%d", s); return 0; }'
    } > "$1.c"
    cc -g -O1 -finstrument-functions -fno-plt -I"$R/capture" -o "$1" "$1.c" \
        -L"$B" -lttcap -Wl,-rpath,"$B"
}

# median of the numbers on stdin
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

run_one() {     # $1 program, $2 mode; prints the CPU microseconds at main
    rm -f x.trc
    [ "$2" != fresh ] || rm -rf .build-id
    if [ "$2" = none ]; then
        TTCAP_STORE=none TTCAP_OUT=x.trc "./$1" 2>&1 > /dev/null
    else
        TTCAP_OUT=x.trc "./$1" 2>&1 > /dev/null
    fi
}

for p in small:5 big:3000; do
    name=${p%%:*}
    make_prog "$name" "${p#*:}"
    rm -rf .build-id x.trc
    TTCAP_OUT=x.trc "./$name" > /dev/null 2>&1 && rm -f x.trc
    kept=$(find .build-id -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    : > none.t; : > kept.t; : > fresh.t
    i=0
    while [ "$i" -lt "$N" ]; do
        run_one "$name" none >> none.t
        run_one "$name" kept >> kept.t
        run_one "$name" fresh >> fresh.t
        i=$((i + 1))
    done
    echo "$name: program $(stat -c %s "$name") bytes, store $kept bytes;" \
         "CPU at main, median: none $(median < none.t) us, kept $(median < kept.t) us," \
         "fresh $(median < fresh.t) us ($N runs each)"
done
echo "load: $(uptime | sed 's/.*load average: //')"
