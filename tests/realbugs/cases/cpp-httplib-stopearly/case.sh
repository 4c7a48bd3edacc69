# cpp-httplib-stopearly: one build, two timings of the application's stop:
# its maintenance job drains for 200 ms or for nothing (000) before it
# stops its embedded status server, the wrapper of cpp-httplib issues #937
# and #1645. httplib::Server::stop() does nothing while the listening
# thread has not yet set is_running_ (httplib.h:5138-5145), so a stop that
# comes first is lost: the thread then binds and blocks in accept() for
# good and the join never returns (README.md argues the ground truth)
PKG=cpp-httplib
KIND=input
TRUTH_DIVERGE='^httplib::Server::stop\(\)'
TRUTH_CAUSE='^httplib::Server::stop\(\)'
# values: Server::stop() and its callees inlined into main (nm; README.md):
# no call of the main thread differs, the listening thread's loop does
TRUTH_DIVERGE_VALUES='^httplib::Server::listen_internal\(\)'
TRUTH_CAUSE_VALUES='^main$'
TAGS='cxx thread order hang'
SINGLE_THREADED=0

# the header (Debian's tree) and this folder's app.cc
build() {
    rb_cc_prog "$2/app" "-I." "-pthread" "$CASE/app.cc"
}

run_good() { "$1/app" 200; }
# the stop at once: hangs; ended after 5 s (SIGTERM, SIGKILL 2 s later: 124)
run_bad() { timeout -k 2 5 "$1/app" 000; }
