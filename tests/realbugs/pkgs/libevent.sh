# pkgs/libevent.sh - how the libevent cases build (sourced before a
# case.sh whose PKG is libevent): the static core and pthreads libraries
# with CMake (CMAKE_BUILD_TYPE None: only the mode's flags; no OpenSSL,
# tests, samples or benchmarks), then the case's application ($APP, else
# $CASE/app.c) linked with them, all with the mode's flags. A case that
# changes the tree first (an input case with a fault in its one build)
# defines its own build and calls libevent_build.
libevent_build() {
    cmake -S . -B tt-build -DCMAKE_BUILD_TYPE=None -DEVENT__LIBRARY_TYPE=STATIC \
        -DEVENT__DISABLE_OPENSSL=ON -DEVENT__DISABLE_TESTS=ON -DEVENT__DISABLE_REGRESS=ON \
        -DEVENT__DISABLE_SAMPLES=ON -DEVENT__DISABLE_BENCHMARK=ON \
        -DCMAKE_C_FLAGS="$TT_CFLAGS" -DCMAKE_EXE_LINKER_FLAGS="$TT_LDFLAGS" >/dev/null || return 1
    # (the linker flags let configure's test programs link with the mode's
    # instrumentation; the cases wake the loop through the eventfd)
    grep -q 'define EVENT__HAVE_EVENTFD 1' tt-build/include/event2/event-config.h ||
        { echo "libevent: configure found no eventfd"; return 1; }
    cmake --build tt-build -j"${JOBS:-2}" --target event_core_static event_pthreads_static \
        >/dev/null || return 1
    # (compiled, then linked without the mode's CFLAGS: no -pg at the link)
    rb_cc_prog "$2/app" "-Iinclude -Itt-build/include" \
        "tt-build/lib/libevent_pthreads.a tt-build/lib/libevent_core.a -lpthread" "${APP:-$CASE/app.c}"
}

build() { libevent_build "$@"; }
