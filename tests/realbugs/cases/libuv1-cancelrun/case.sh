# libuv1-cancelrun: a fault patch (fault.patch) that mimics a real ordering
# bug class, a cancel racing a worker that already finished: uv_cancel()
# on a work request whose work has run but whose completion callback has
# not, reports it cancelled (README.md argues the ground truth)
PKG=libuv1
KIND=patch
PATCH=fault.patch
REVERSE=1
# uv__work_cancel (static, called from uv_cancel only) is inlined into
# uv_cancel in the values build (nm: no symbol), README.md
TRUTH_DIVERGE='^uv__work_cancel$'
TRUTH_CAUSE='^uv__work_cancel$'
TRUTH_DIVERGE_VALUES='^uv_cancel$'
TRUTH_CAUSE_VALUES='^uv_cancel$'
TAGS='thread order regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libuv1.sh (with this folder's app.c)

run_good() {
    UV_THREADPOOL_SIZE=1 "$1/app"
}

run_bad() {
    UV_THREADPOOL_SIZE=1 timeout -k 5 30 "$1/app"
}
