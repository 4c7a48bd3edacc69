#!/bin/sh
# link_check.sh - linking that cannot fail silently. ttcap.pc's --libs in
# LDFLAGS *before* the objects (as build systems pass them) under
# -Wl,--as-needed still links libttcap and traces; a program whose hooks go
# to glibc (libttcap only reached through a dlopen'd plugin) is told so at
# start; libttcap preloaded into an uninstrumented program says at exit that
# nothing was traced; correct programs (hooks, macros only, static) say
# nothing.
set -eu
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.."
command -v pkg-config > /dev/null || { echo "SKIP: no pkg-config"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
san=${SAN:-}
# the build tree's ttcap.pc with libdir and includedir pointed at the tree
libs=$(pkg-config --define-variable=libdir="$B" --libs "$B/ttcap.pc")
R=$(pwd)
cflags="-finstrument-functions -fno-plt -I$R/capture"
echo "$libs" | grep -q -e '--no-as-needed -lttcap' || fail "ttcap.pc --libs: $libs"

cat > "$T/app.c" <<'SRC'
#include <dlfcn.h>
#include <stdio.h>
static int square(int x) { return x * x; }
int main(int argc, char **argv)
{
    if (argc > 1 && !dlopen(argv[1], RTLD_NOW)) {
        fprintf(stderr, "%s\n", dlerror());
        return 3;
    }
    printf("%d\n", square(3));
    return 0;
}
SRC
cat > "$T/plug.c" <<'SRC'
int plug_fn(int x);
int plug_fn(int x) { return x + 1; }
SRC
cat > "$T/manual.c" <<'SRC'
#include <ttcap.h>
int main(void) { TT_LOG(TTCAP_INFO, "manual only %d", 1); return 0; }
SRC
cd "$T"
rp="-Wl,-rpath,$B"
# 1. the flags before the objects, --as-needed: libttcap stays, calls traced
cc -g $san $cflags -Wl,--as-needed $libs $rp -o good app.c -ldl || fail "link good"
ldd good | grep -q 'libttcap\.so' || { ldd good; fail "--as-needed dropped libttcap despite ttcap.pc"; }
TTCAP_OUT=good.trc ./good > out 2> err || fail "good run"
[ ! -s err ] || { cat err; fail "good run wrote to stderr"; }
"$B/ttdump" good.trc | grep -q '> square$' || fail "good run: square not traced"

# the same with a bare -lttcap: the silent failure ttcap.pc avoids (when
# this linker drops it; then the hooks go to glibc's)
cc -g $san $cflags -Wl,--as-needed -L"$B" -lttcap $rp -o dropped app.c -ldl || fail "link dropped"
if ! ldd dropped | grep -q 'libttcap\.so'; then
    # 2. libttcap loaded through a plugin: the program's hooks are glibc's
    cc -shared -fPIC $san -finstrument-functions -o plug.so plug.c -L"$B" \
        -Wl,--no-as-needed -lttcap $rp || fail "link plugin"
    TTCAP_OUT=dl.trc ./dropped ./plug.so > out 2> err || fail "dropped run"
    [ "$(grep -c '^ttcap:' err)" = 1 ] || { cat err; fail "want one ttcap line on stderr"; }
    grep -q "hooks go to .*libc.*not libttcap.*pkg-config --libs ttcap" err ||
        { cat err; fail "dlopen case: no hint"; }
else
    echo "note: this linker keeps a bare -lttcap under --as-needed"
fi

# 3. preloaded into a program built without -finstrument-functions
cc -g $san -o plain app.c -ldl || fail "link plain"
pre=$B/libttcap.so
# (an ASan build's libttcap needs the sanitizer runtimes loaded first)
[ -z "$san" ] || pre="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so) $pre"
TTCAP_OUT=plain.trc LD_PRELOAD="$pre" ASAN_OPTIONS=detect_leaks=0 ./plain > out 2> err ||
    { cat err; fail "plain run"; }
[ "$(grep -c '^ttcap:' err)" = 1 ] || { cat err; fail "preload: want one ttcap line"; }
grep -q 'no function call traced.*-finstrument-functions' err || { cat err; fail "preload: no hint"; }

# 4. manual macros only, and a static link: nothing to say
cc -g $san -I"$R/capture" -o manual manual.c -L"$B" $libs $rp || fail "link manual"
TTCAP_OUT=manual.trc ./manual 2> err || fail "manual run"
[ ! -s err ] || { cat err; fail "manual-only program warned"; }
cc -g $san $cflags -o static app.c "$B/libttcap.a" -lpthread -ldl \
    $(if [ -n "$san" ]; then echo -lubsan; fi) || fail "link static"
TTCAP_OUT=static.trc ./static > out 2> err || fail "static run"
[ ! -s err ] || { cat err; fail "static program warned"; }
"$B/ttdump" static.trc | grep -q '> square$' || fail "static: square not traced"
echo ok
