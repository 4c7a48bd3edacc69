# ck-pollearly: a fault patch (fault.patch): Concurrency Kit's
# ck_epoch_poll_deferred dispatches the callbacks of epoch - 1 instead of
# epoch - 2 before it scans the readers, so a poll runs a retired object's
# destructor one epoch too early, while a reader that observed that epoch
# still holds the object (README.md argues the ground truth)
PKG=ck
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^ck_epoch_dispatch$'
TRUTH_CAUSE='^ck_epoch_poll_deferred$'
TAGS='thread order corruption regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/ck.sh, with this folder's retire.c
build() { ck_build "$2/retire" "$CASE/retire.c"; }

run_good() { "$1/retire"; }
run_bad() { run_good "$@"; }
