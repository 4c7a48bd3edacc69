#!/bin/sh
# make threadsuite: do passing runs of a real threaded test suite diff as
# the same? (issue 22; a benchmark like make realbugs, not part of make test)
#
#   sh tests/realbugs/threadsuite.sh BUILD_DIR
#   make threadsuite [TS_MODES='plain values'] [TS_PAIRS=10]
#
# The suite: the threaded tests of zstd (Debian source package libzstd),
# built with tt's instrumentation:
#   pool   tests/poolTests.c whole (zstd's `make test-pool`): pools of 1 to
#          4 workers and queues of 0 to 2 items, 16 jobs each (ordered,
#          sleeping), a pool resized from 4 workers to 2, one shut down
#          with jobs still queued; 67 threads a run;
#   zc1    the zstdmt round trips of tests/playTests.sh, smaller: zstd -1
#          -T2 -B128K of `datagen -g1M` (8 jobs for 2 compression workers,
#          plus the CLI's read and write threads);
#   zc3    zstd -3 -T2 of `datagen -g2M`;
#   zd     zstd -d of zc1's frame (the CLI's I/O threads);
# each step checked as the test suite checks it (poolTests' exit status;
# the round trip's output equal to its input), so every recorded run
# passes. Run 0 is the baseline; runs 1..2*TS_PAIRS make TS_PAIRS pairs
# (1,2) (3,4) ...; each pair is diffed per program with
# `ttdiff --baseline run0 A B` (and without the baseline, for comparison).
# A pair counts as the same when every program's ttdiff exits 0.
# Prints one line per pair and "N of 10 pairs exit 0" per mode; writes them
# to BUILD_DIR/threadsuite/table.txt. Skips with a note (exit 0) when the
# source cannot be had. Exit status: 0 when it ran, 2 on a usage error.

set -u
B=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RB_DIR=$ROOT/tests/realbugs
[ -d "$B" ] || { echo "threadsuite: no build folder $B (run make first)" >&2; exit 2; }
B=$(cd "$B" && pwd)
for f in ttdiff libttcap.so ttcap-values.pc; do
    [ -e "$B/$f" ] || { echo "threadsuite: no $B/$f (run make first)" >&2; exit 2; }
done
. "$RB_DIR/lib.sh"

RB_CACHE=${TT_REALBUGS_CACHE:-$HOME/.cache/tt-realbugs}
TS_MODES=${TS_MODES:-plain}
TS_PAIRS=${TS_PAIRS:-10}
TS_TIMEOUT=${TS_TIMEOUT:-600}
JOBS=${JOBS:-2}
OUTD=$B/threadsuite
mkdir -p "$RB_CACHE/src" "$OUTD"
rb_ttcc_flags            # the flags of make realbugs (lib.sh)
WORK=$RB_CACHE/work/$(printf '%s' "$B" | sha256sum | cut -c1-12)/threadsuite

note() { printf 'threadsuite: %s\n' "$*" >&2; }

RB_DEBSRC=1
rb_enable_debsrc || RB_DEBSRC=0
SRC=$(rb_fetch libzstd) || { note "skipped: no libzstd source (apt-get source libzstd)"; exit 0; }

# ts_build MODE OUT : poolTests, zstd (traced) and datagen (untraced) into
# OUT, from a private copy of the source; redone when libttcap, this
# script or the flags changed
ts_build() {
    rb_mode_flags "$1" || return 1
    stamp=$(printf '%s|%s' "$(rb_hash "$B/libttcap.so" "$0" "$RB_DIR/lib.sh")" "$TT_CFLAGS")
    [ "$(cat "$2/.stamp" 2>/dev/null)" = "$stamp" ] && return 0
    rm -rf "$2" && mkdir -p "$2" || return 1
    t=$2/src
    cp -a "$SRC" "$t" || return 1
    (
        cd "$t/tests" || exit 1
        rb_cc_prog "$2/poolTests" "-I../lib -I../lib/common -I../programs -DZSTD_MULTITHREAD" \
            "-pthread" ../programs/util.c ../programs/timefn.c poolTests.c \
            ../lib/common/pool.c ../lib/common/threading.c ../lib/common/zstd_common.c \
            ../lib/common/error_private.c || exit 1
        make -s -j"$JOBS" datagen >/dev/null || exit 1
        cp datagen "$2/datagen"
        cd .. && make -s -C programs -j"$JOBS" zstd CFLAGS="$TT_CFLAGS" LDFLAGS="$TT_LDFLAGS" \
            HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 || exit 1
        cp programs/zstd "$2/zstd"
    ) >"$2/build.log" 2>&1 || { note "$1 build failed (see $2/build.log)"; return 1; }
    echo "$stamp" >"$2/.stamp"
}

# ts_run BIN DIR : one passing run of the suite into DIR/{pool,zc1,zc3,zd}.trc;
# 1 (with a note) when a test of the suite failed
ts_run() {
    rm -rf "$2" && mkdir -p "$2" && cd "$2" || return 1
    TTCAP_OUT=$2/pool.trc timeout "$TS_TIMEOUT" "$1/poolTests" >pool.out 2>&1 ||
        { note "$2: poolTests failed"; return 1; }
    "$1/datagen" -g1M >in1 && "$1/datagen" -g2M >in3 || return 1
    TTCAP_OUT=$2/zc1.trc timeout "$TS_TIMEOUT" "$1/zstd" -q -1 -T2 -B128K -c in1 >in1.zst &&
    TTCAP_OUT=$2/zc3.trc timeout "$TS_TIMEOUT" "$1/zstd" -q -3 -T2 -c in3 >in3.zst &&
    TTCAP_OUT=$2/zd.trc timeout "$TS_TIMEOUT" "$1/zstd" -q -d -c in1.zst >out1 &&
    cmp -s in1 out1 && env -u TTCAP_OUT "$1/zstd" -q -d -c in3.zst | cmp -s in3 - ||
        { note "$2: a zstd round trip failed"; return 1; }
    rm -f in1 in3 out1 in1.zst in3.zst
}

PROGS="pool zc1 zc3 zd"
for MODE in $TS_MODES; do
    BIN=$WORK/$MODE
    ts_build "$MODE" "$BIN" || continue
    R=$OUTD/$MODE
    n=$((2 * TS_PAIRS))
    printf 'threadsuite (%s): recording %d passing runs of zstd %s tests\n' \
        "$MODE" $((n + 1)) "$(basename "$SRC")"
    ok=1
    for i in $(seq 0 $n); do
        ts_run "$BIN" "$R/run$i" || { ok=0; break; }
    done
    [ $ok = 1 ] || { note "$MODE: a run failed, no pairs diffed"; continue; }
    same=0; same0=0
    {
        printf '%s mode: ttdiff --baseline run0 A B, exit status per program (without the baseline in brackets)\n' "$MODE"
        printf '%-12s' pair; for p in $PROGS; do printf '%-8s' "$p"; done; echo
    } | tee "$R/table.txt"
    for k in $(seq 1 "$TS_PAIRS"); do
        a=$R/run$((2 * k - 1)); b=$R/run$((2 * k))
        line=$(printf '%-12s' "$((2 * k - 1)),$((2 * k))"); all=0; all0=0
        for p in $PROGS; do
            "$B/ttdiff" --baseline "$R/run0/$p.trc" "$a/$p.trc" "$b/$p.trc" >"$R/pair$k-$p.txt" 2>&1
            rc=$?
            "$B/ttdiff" "$a/$p.trc" "$b/$p.trc" >"$R/pair$k-$p-nobase.txt" 2>&1
            rc0=$?
            [ $rc = 0 ] || all=1
            [ $rc0 = 0 ] || all0=1
            line="$line$(printf '%-8s' "$rc ($rc0)")"
        done
        [ $all = 0 ] && same=$((same + 1))
        [ $all0 = 0 ] && same0=$((same0 + 1))
        echo "$line" | tee -a "$R/table.txt"
    done
    printf '%s: %d of %d pairs exit 0 (without the baseline: %d of %d)\n' \
        "$MODE" $same "$TS_PAIRS" $same0 "$TS_PAIRS" | tee -a "$R/table.txt"
    cat "$R/table.txt" >>"$OUTD/table.txt"
done
exit 0
