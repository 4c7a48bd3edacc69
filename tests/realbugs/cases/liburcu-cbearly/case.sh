# liburcu-cbearly: a fault patch (fault.patch) of a real ordering bug class
# (a deferred free run before its grace period): liburcu's call_rcu thread
# runs the queued callbacks first and waits for the grace period after
# them, so the callback retires a configuration a reader still uses
# (README.md argues the ground truth)
PKG=liburcu
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^call_rcu_thread$'
TRUTH_CAUSE='^call_rcu_thread$'
TAGS='thread order regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/liburcu.sh

run_good() { "$1/app"; }

run_bad() { timeout -k 5 30 "$1/app"; }
