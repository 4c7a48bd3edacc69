# pkgs/nng.sh - how the nng cases build (sourced before a case.sh whose PKG
# is nng): the static libnng.a alone with cmake (CMAKE_BUILD_TYPE None:
# only the mode's flags; no tests, tools, TLS or HTTP), two taskq threads,
# one aio expiry thread and one resolver thread (NNG_NUM_TASKQ_THREADS,
# NNG_EXPIRE_THREADS, NNG_RESOLV_CONCURRENCY: a run has the same threads
# on any machine), then the case's application $CASE/app.c linked with it.
# A case that changes the tree first defines its own build and calls
# nng_build.
nng_build() {
    CFLAGS="$TT_CFLAGS -DNNG_EXPIRE_THREADS=1" LDFLAGS="$TT_LDFLAGS" \
        cmake -S . -B tt-build -G Ninja -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=OFF \
        -DNNG_TESTS=OFF -DNNG_TOOLS=OFF -DNNG_ENABLE_NNGCAT=OFF -DNNG_ENABLE_TLS=OFF \
        -DNNG_ENABLE_HTTP=OFF -DNNG_NUM_TASKQ_THREADS=2 -DNNG_RESOLV_CONCURRENCY=1 \
        >/dev/null || return 1
    ninja -C tt-build -j"${JOBS:-2}" nng >/dev/null || return 1
    rb_cc_prog "$2/app" "-Iinclude" "tt-build/libnng.a -pthread" "$CASE/app.c"
}

build() { nng_build "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
    command -v ninja >/dev/null 2>&1 || { echo "needs ninja"; exit 1; }
}
