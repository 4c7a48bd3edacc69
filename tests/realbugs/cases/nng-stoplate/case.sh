# nng-stoplate: a fault patch (fault.patch) of a real ordering bug class (a
# shutdown flag published too late): nng_aio_stop marks the aio stopped
# only after its wait for the running callback, so the callback's re-arm
# is still accepted and the ticker runs on after the stop (README.md
# argues the ground truth)
PKG=nng
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^nni_aio_begin$'
TRUTH_CAUSE='^nni_aio_stop$'
TAGS='thread order regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/nng.sh

run_good() { "$1/app"; }

run_bad() { timeout -k 5 30 "$1/app"; }
