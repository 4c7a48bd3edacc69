# libev-skipcheck: a fault patch (fault.patch): ev_io_stop's "already
# stopped" check made to need an invalid fd as well (&& for ||), so
# stopping an inactive io watcher, which libev allows, is done again: the
# loop's count of active watchers drops once more and ev_run returns while
# a timer is still active (README.md argues the ground truth)
PKG=libev
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^ev_io_stop$'
# -pg build: wlist_del, ev_stop and fd_change are inlined into ev_io_stop
# (objdump: it calls only __fentry__ and __assert_fail), so its calls do
# not differ; the first differing calls are ev_run's
TRUTH_DIVERGE_VALUES='^ev_run$'
TRUTH_CAUSE='^ev_io_stop$'
TAGS='regression'
SINGLE_THREADED=1

# ev.c embedded (ev.pod "EMBEDDING": EV_STANDALONE, libev's own defaults,
# epoll on Linux; no configure) with this folder's app.c
build() {
    rb_cc_prog "$2/app" "-DEV_STANDALONE=1 -I." "-lm" ev.c "$CASE/app.c"
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }
