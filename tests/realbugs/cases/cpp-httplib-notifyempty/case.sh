# cpp-httplib-notifyempty: a fault patch (fault.patch) that mimics a real
# bug class, a lost wake-up: httplib::ThreadPool::enqueue notifies a worker
# only when the queue was empty before its push, so a job queued while a
# woken worker has not yet taken the previous one wakes nobody; the
# application's merge job waits for that job forever (README.md argues
# the ground truth)
PKG=cpp-httplib
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='httplib::ThreadPool::enqueue\('
# values: enqueue makes no traced call; the runs part in the idle worker's
# loop, which wakes for the second job in the good run only (README.md)
TRUTH_DIVERGE_VALUES='httplib::ThreadPool::worker::operator\(\)\(\)$'
TRUTH_CAUSE='httplib::ThreadPool::enqueue\('
TAGS='cxx thread race regression hang'
SINGLE_THREADED=0

# the header only (httplib.h in the source tree), with this folder's app.cc
build() {
    rb_cc_prog "$2/app" "-I." "-pthread" "$CASE/app.cc"
}

run_good() { "$1/app" 000; }

# the bad process never ends by itself when the second push beats the
# woken worker's pop (README.md "The runs"): each run ended after 5 s
# (SIGTERM, SIGKILL 2 s later, 124); run again, at most 10 times, until
# one hangs
run_bad() {
    n=0
    while :; do
        rm -f "$TTCAP_OUT"
        timeout -k 2 5 "$1/app" 000
        st=$?
        n=$((n + 1))
        [ "$st" -ne 0 ] || [ "$n" -ge 10 ] && break
    done
    echo "run_bad: attempt $n ended with status $st" >&2
    return "$st"
}
