# ck-ecwake: a fault patch (fault.patch) of a real wait/wake bug class (a
# "wake only if someone waits" test made after the flag it tests was
# cleared): Concurrency Kit's ck_ec32_wake clears the event count's
# waiter flag, then finds no waiter and skips the futex wake; the
# consumer sleeps on to its next back-off deadline, 800 ms late
# (README.md argues the ground truth)
PKG=ck
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^ck_ec32_wake$'
# values: ck_ec32_wake tail-jumps to ops->wake32 (objdump, README.md)
TRUTH_DIVERGE_VALUES='^(ck_ec32_wake|publish_job)$'
TRUTH_CAUSE='^ck_ec32_wake$'
TAGS='thread race regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/ck.sh, with this folder's ecwait.c
build() { ck_build "$2/ecwait" "$CASE/ecwait.c"; }

run_good() { "$1/ecwait"; }
run_bad() { run_good "$@"; }
