# cpp-httplib-wakerace: one build with cpp-httplib-notifyempty's fault
# (httplib::ThreadPool::enqueue notifies a worker only when the queue was
# empty before its push), two timings of the application's second job: 100
# ms after the first (a worker has taken the first: the push wakes the
# other) or right after it (the woken worker has not taken the first yet:
# nobody is woken, the run hangs). Same code in both runs (README.md
# argues the ground truth)
PKG=cpp-httplib
KIND=input
# plain: the wait template inlined into the worker loop has a frame of its
# own (README.md): either name
TRUTH_DIVERGE='(httplib::ThreadPool::worker::operator\(\)\(\)$|condition_variable::wait<httplib::ThreadPool::worker::operator\(\)\(\)::)'
TRUTH_DIVERGE_VALUES='httplib::ThreadPool::worker::operator\(\)\(\)$'
TRUTH_CAUSE='httplib::ThreadPool::enqueue\('
TAGS='cxx thread race hang'
SINGLE_THREADED=0

# the header with the fault (this folder's fault.patch,
# cpp-httplib-notifyempty's) and this folder's app.cc
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    rb_cc_prog "$2/app" "-I." "-pthread" "$CASE/app.cc"
}

# the second job 100 ms after the first
run_good() { "$1/app" 100; }

# right after it: hangs (README.md "The runs"); each run ended after 5 s
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
