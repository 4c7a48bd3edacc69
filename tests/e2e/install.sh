#!/bin/sh
# install.sh - `make install PREFIX=<temp>` from the build in $1, then a
# program outside the tree is built against the installed copy with
# pkg-config only, records a trace through TTCAP_OUT, and the installed
# ttdump and ttdiff read it (function names, a message, a divergence).
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
command -v pkg-config > /dev/null || { echo "SKIP: no pkg-config"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$T/prefix
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; head -40 "$2"; fail "no '$1' in $2"; }; }

# a make run from make test: do not take part in the outer jobserver
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s B="$B" install PREFIX="$P" \
    > "$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
for f in include/ttcap.h include/ttfmt.h include/ttdiff.h include/ttprof.h \
         include/ttreport.h lib/libttcap.so lib/libttcap.so.1 \
         lib/libttcap.a lib/libttfmt.a lib/pkgconfig/ttcap.pc bin/ttdump bin/ttdiff; do
    [ -e "$P/$f" ] || { find "$P"; fail "not installed: $f"; }
done
[ -x "$P/bin/ttdiff" ] && [ -x "$P/bin/ttdump" ] || fail "tools not executable"
has "^prefix=$P\$" "$P/lib/pkgconfig/ttcap.pc"
# the soname the programs record must exist in the prefix
soname=$(readelf -d "$P/lib/libttcap.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -e "$P/lib/$soname" ] || fail "soname $soname not installed"

# a user's program, outside the tree, with a manual macro of each kind
mkdir "$T/app"
cat > "$T/app/app.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <ttcap.h>

static int square(int x)
{
    TT_SCOPE();
    TT_RETURN(x * x);
}

static int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += square(i);
    TT_LOG(TTCAP_INFO, "sum of %d squares is %d", n, s);
    TT_VALUE("n", n);
    TT_MARK("done");
    return s;
}

int main(int argc, char **argv)
{
    int s = work(argc > 1 ? atoi(argv[1]) : 3);
    printf("%d %d %s\n", s, ttcap_enabled(), ttcap_path() ? ttcap_path() : "-");
    return ttcap_version() == TTCAP_VERSION_NUMBER ? 0 : 1;
}
SRC
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
cflags=$(pkg-config --cflags ttcap) && libs=$(pkg-config --libs ttcap) || fail "pkg-config ttcap"
echo "$cflags" | grep -q -e '-finstrument-functions' || fail "Cflags lack -finstrument-functions: $cflags"
# (in an ASan build, make asan, the library needs the program built with ASan)
(cd "$T/app" && cc -O1 -g ${SAN:-} $cflags -o app app.c $libs -Wl,-rpath,"$P/lib") \
    || fail "building app against the installed copy"
# it must use the installed library, not the build tree's
ldd "$T/app/app" | grep -q "libttcap.so.1 => $P/lib/" || { ldd "$T/app/app"; fail "not linked to $P/lib"; }

(cd "$T/app" && ./app 3 > out3) || fail "untraced run"
has '^5 0 -$' "$T/app/out3"
(cd "$T/app" && TTCAP_OUT=run.%p.trc ./app 3 > out3t) || fail "traced run"
trc=$(ls "$T/app"/run.*.trc)
has "^5 1 .*run\.[0-9]*\.trc\$" "$T/app/out3t"
(cd "$T/app" && TTCAP_OUT=four.trc ./app 4 > /dev/null) || fail "traced run 4"

"$P/bin/ttdump" "$trc" > "$T/dump" || fail "installed ttdump"
has '> main$' "$T/dump"
has '> work$' "$T/dump"
has '> square$' "$T/dump"
has 'log: sum of 3 squares is 5$' "$T/dump"
has 'value: n = 3$' "$T/dump"
has 'return: return = 4$' "$T/dump"
has 'mark: done$' "$T/dump"
[ "$(grep -c '> square$' "$T/dump")" -ge 3 ] || fail "want 3 calls of square"
"$P/bin/ttdump" --version > /dev/null || fail "ttdump --version"

rc=0; "$P/bin/ttdiff" --color never "$trc" "$T/app/four.trc" > "$T/diff" || rc=$?
[ "$rc" = 1 ] || { cat "$T/diff"; fail "installed ttdiff: exit $rc, want 1"; }
has '^first divergence: thread app' "$T/diff"
has '^      work  at .*app.c:[0-9]' "$T/diff"

# the installed reader library: count thread 0's enters with ttfmt.h
cat > "$T/app/count.c" <<'SRC'
#include <stdio.h>
#include <ttfmt.h>

int main(int argc, char **argv)
{
    ttf_trace *t;
    ttf_iter *it;
    ttf_event ev;
    int n = 0, rc;
    if (argc < 2 || ttf_open(argv[1], &t, NULL) != 0)
        return 2;
    if (ttf_iter_open(t, 0, &it) != 0)
        return 2;
    while ((rc = ttf_iter_next(it, &ev)) == 1)
        n += ev.kind == TTF_EV_ENTER;
    ttf_iter_close(it);
    printf("%zu %d\n", ttf_thread_count(t), n);
    ttf_close(t);
    return rc == 0 ? 0 : 2;
}
SRC
(cd "$T/app" && cc -O1 ${SAN:-} -I"$P/include" -o count count.c "$P/lib/libttfmt.a" \
    -ldw -lelf -lpcre2-8 -lxxhash -lm) || fail "building against libttfmt.a"
# main, work, square x3 (each twice: instrumented and TT_SCOPE'd)
"$T/app/count" "$trc" > "$T/count" || fail "count"
has '^1 8$' "$T/count"

# the installed profile API (ttprof.h, libttdiff.a): the profile diff of
# the trace with itself: square's 6 calls (3 instrumented, 3 TT_SCOPE'd,
# one row by name) on both sides, nothing changed
cat > "$T/app/prof.c" <<'SRC'
#include <stdio.h>
#include <string.h>
#include <ttprof.h>

int main(int argc, char **argv)
{
    ttd_profile *p;
    const ttd_profile_result *r;
    size_t i;

    if (argc < 2 || ttd_profile_diff_files(argv[1], argv[1], NULL, 0, &p, NULL) != 0)
        return 2;
    r = ttd_profile_get_result(p);
    for (i = 0; i < r->nrows; i++)
        if (strcmp(r->rows[i].name, "square") == 0)
            printf("square %llu %llu changed %zu\n",
                   (unsigned long long)r->rows[i].good.calls,
                   (unsigned long long)r->rows[i].bad.calls, r->changed);
    ttd_profile_free(p);
    return 0;
}
SRC
(cd "$T/app" && cc -O1 ${SAN:-} -I"$P/include" -o prof prof.c "$P/lib/libttdiff.a" \
    "$P/lib/libttfmt.a" -ldw -lelf -lpcre2-8 -lxxhash -lm) || fail "building against ttprof.h"
"$T/app/prof" "$trc" > "$T/prof" || fail "prof"
has '^square 6 6 changed 0$' "$T/prof"

# static linking against the installed libttcap.a works as well
(cd "$T/app" && cc -O1 ${SAN:-} $cflags -o app_static app.c "$P/lib/libttcap.a" -lpthread -ldl) \
    || fail "static build"
(cd "$T/app" && TTCAP_OUT=static.trc ./app_static 2 > /dev/null) || fail "static run"
"$P/bin/ttdump" "$T/app/static.trc" | grep -q '> square$' || fail "static trace"
echo ok
