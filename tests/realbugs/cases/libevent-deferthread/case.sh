# libevent-deferthread: a fault patch (fault.patch): evbuffer_invoke_callbacks_
# passes the buffer's "callbacks are deferred" bit as evbuffer_run_callbacks'
# "this is the deferred run" argument, so a buffer whose callbacks should
# run from the event loop runs them at once, in the thread that changed the
# buffer (README.md argues the ground truth)
PKG=libevent
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^evbuffer_run_callbacks$'
TRUTH_CAUSE='^evbuffer_invoke_callbacks_$'
TAGS='thread order regression arg-chain'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libevent.sh (libevent_build), this folder's app.c

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
