# libuv1-timerorder: a fault patch (fault.patch) that mimics a real bug
# class (a comparator's tie-break the wrong way round): timers due at the
# same time are ordered by start_id descending, so the last one started
# runs first (README.md argues the ground truth)
PKG=libuv1
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^heap_insert$'
# -pg build: heap_insert and timer_less_than are inlined into uv_timer_start
# (objdump: uv_timer_start calls heap_node_swap only; README.md)
TRUTH_DIVERGE_VALUES='^uv_timer_start$'
TRUTH_CAUSE='^timer_less_than$'
TRUTH_CAUSE_VALUES='^(timer_less_than|uv_timer_start)$'
TAGS='regression order'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/libuv1.sh (with this folder's app.c)

run_good() {
    "$1/app"
}
run_bad() { run_good "$@"; }
