# liburcu-graceearly: a fault patch (fault.patch) of a real ordering bug
# class (a grace period that ends before a reader left): liburcu's
# synchronize_rcu counts the readers already in a critical section of the
# current phase as quiescent, returns while a request still uses the old
# configuration, and the writer retires it under the reader (README.md
# argues the ground truth)
PKG=liburcu
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^wait_for_readers(\.|$)'
TRUTH_DIVERGE_VALUES='^(urcu_mb_synchronize_rcu|wait_for_readers(\.|$))'
TRUTH_CAUSE='^urcu_mb_synchronize_rcu$'
TAGS='thread order regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/liburcu.sh

run_good() { "$1/app"; }

run_bad() { timeout -k 5 30 "$1/app"; }
