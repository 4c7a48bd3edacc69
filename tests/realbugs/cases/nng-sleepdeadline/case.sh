# nng-sleepdeadline: a fault patch (fault.patch) of a real class (a result
# computed from the wrong one of two look-alike flags): nng's aio expiry
# thread ends a sleep cut short by the aio's timeout with 0 ("finished")
# instead of NNG_ETIMEDOUT; the taskq thread's callback reads it back and
# retries too early (README.md argues the ground truth)
PKG=nng
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^on_wake$'
TRUTH_DIVERGE_VALUES='^nni_aio_expire_loop$'
TRUTH_CAUSE='^nni_aio_expire_loop$'
TAGS='thread corruption regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/nng.sh

run_good() { "$1/app"; }

run_bad() { timeout -k 5 30 "$1/app"; }
