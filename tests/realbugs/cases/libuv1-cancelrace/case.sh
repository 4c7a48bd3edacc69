# libuv1-cancelrace: one build with libuv1-cancelrun's fault (uv_cancel's
# check drops `w->work != NULL`), two timings of the application's
# uv_cancel: while the job's work runs (good: UV_EBUSY, the check is right
# without the fault's clause) or after the work finished, before the loop
# ran its completion (bad: reported cancelled, result lost). Same code in
# both runs (README.md argues the ground truth)
PKG=libuv1
KIND=input
# uv__work_cancel (static, called from uv_cancel only) is inlined into
# uv_cancel in the values build (libuv1-cancelrun's nm), README.md
TRUTH_DIVERGE='^uv__work_cancel$'
TRUTH_CAUSE='^uv__work_cancel$'
TRUTH_DIVERGE_VALUES='^uv_cancel$'
TRUTH_CAUSE_VALUES='^uv_cancel$'
TAGS='thread order'
SINGLE_THREADED=0

build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    uv_build "$2/app" "$CASE/app.c"
}

# uv_cancel 50 ms after uv_queue_work: the 200 ms work is running
run_good() {
    UV_THREADPOOL_SIZE=1 "$1/app" 050
}

# 400 ms after: the work is done, its completion not yet run
run_bad() {
    UV_THREADPOOL_SIZE=1 timeout -k 5 30 "$1/app" 400
}
