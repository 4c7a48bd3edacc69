# ck-ecdeadline: a fault patch (fault.patch) of a real bug class (a
# boundary test off by one, "non-positive" written as <= 0 on the seconds
# alone): Concurrency Kit's timespec_add takes any increment with 0
# seconds for a no-op, so ck_ec_deadline turns an 800 ms time-out into a
# deadline of now; the consumer's wait, four calls further down, finds it
# passed and gives up before the job is published (README.md argues the
# ground truth)
PKG=ck
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^exponential_backoff$'
TRUTH_CAUSE='^timespec_add$'
# -pg build: timespec_add is inlined into ck_ec_deadline_impl (objdump)
TRUTH_CAUSE_VALUES='^(timespec_add|ck_ec_deadline_impl)$'
TAGS='thread regression arg-chain'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/ck.sh, with this folder's ecwait.c
build() { ck_build "$2/ecwait" "$CASE/ecwait.c"; }

run_good() { "$1/ecwait"; }
run_bad() { run_good "$@"; }
