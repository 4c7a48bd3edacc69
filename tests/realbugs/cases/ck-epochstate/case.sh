# ck-epochstate: a fault patch (fault.patch) of a real bug class (a state
# word initialised with the wrong constant, copied from the function
# that undoes it): ck_epoch_register marks a new epoch record FREE, the
# value ck_epoch_unregister leaves; the writer's grace-period scan, much
# later, skips the reader's record as unused and the grace period ends
# while the reader is inside its section; the configuration is retired
# under it (README.md argues the ground truth)
PKG=ck
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^ck_epoch_scan$'
TRUTH_DIVERGE_VALUES='^ck_epoch_synchronize_wait$'
TRUTH_CAUSE='^ck_epoch_register$'
TAGS='thread order corruption regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/ck.sh, with this folder's confswap.c
build() { ck_build "$2/confswap" "$CASE/confswap.c"; }

run_good() { "$1/confswap"; }
run_bad() { run_good "$@"; }
