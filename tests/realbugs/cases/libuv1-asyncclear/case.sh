# libuv1-asyncclear: a fault patch (fault.patch) that mimics a real race
# class, a check-then-act on a shared flag: the loop thread checks an async
# handle's pending flag, runs the callback, and clears the flag only after
# it, so a uv_async_send() made while the callback runs sees the flag set,
# skips the wake-up, and the message is never handled (README.md argues the
# ground truth)
PKG=libuv1
KIND=patch
PATCH=fault.patch
REVERSE=1
# plain: gcc splits uv__async_io (partial inlining) and its loop runs in
# uv__async_io.part.0 (nm of both plain builds; an erratum, README.md)
TRUTH_DIVERGE='^uv__async_io(\.part\.[0-9]+)?$'
TRUTH_CAUSE='^uv__async_io(\.part\.[0-9]+)?$'
# values: uv__async_spin is inlined (nm: no symbol), so the loop thread's
# first call that differs is in uv__io_poll's next round (README.md)
TRUTH_DIVERGE_VALUES='^uv__io_poll$'
TAGS='thread race regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libuv1.sh (with this folder's app.c)

run_good() {
    "$1/app"
}

run_bad() {
    timeout -k 5 30 "$1/app"
}
