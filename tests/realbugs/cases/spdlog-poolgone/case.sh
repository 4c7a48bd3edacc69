# spdlog-poolgone: one build, two timings of the application's stop: its
# grace period is 1500 ms (the import worker's 20 batches are done) or 20
# ms (the worker is at its fourth). stop_service calls spdlog::shutdown(),
# which frees the async loggers' thread pool, before it joins the worker
# (the order of spdlog issue #2937's "async log: thread pool doesn't exist
# anymore"): the worker's later lines fail and are lost, and the audit
# finds the log short (README.md argues the ground truth)
PKG=spdlog
KIND=input
TRUTH_DIVERGE='spdlog::async_logger::sink_it_\('
TRUTH_CAUSE='^stop_service\('
# values: stop_service inlined into main (nm; README.md): main, or the
# inlined copy named by its DWARF (plain name, no parameters: static)
TRUTH_CAUSE_VALUES='^(main|stop_service)$'
TAGS='cxx thread order'
SINGLE_THREADED=0

# the compiled library's four sources (Debian's tree: the system's fmt)
# with this folder's app.cc, as spdlog-getorcreate
build() {
    rb_cc_prog "$2/app" "-DSPDLOG_COMPILED_LIB -DSPDLOG_FMT_EXTERNAL -Iinclude" \
        "-lfmt -pthread" "$CASE/app.cc" src/spdlog.cpp src/async.cpp \
        src/file_sinks.cpp src/color_sinks.cpp
}

run_good() { rm -f import.log; "$1/app" 1500; }
run_bad() { rm -f import.log; "$1/app" 0020; }

needs() {
    [ -e /usr/include/fmt/core.h ] || { echo "needs libfmt-dev"; exit 1; }
}
