# spdlog-getorcreate: one build, two timings of the application's second
# CSV reader thread (300 ms vs 20 ms after the first): the readers get
# the shared logger with an unsynchronised get-or-create helper (spdlog
# issue #905, kuzu issue #950); only the reader that looks the logger up
# while the first is still configuring it creates a second one, and
# spdlog::register_logger throws "logger with name 'csv_reader' already
# exists" (README.md argues the ground truth)
PKG=spdlog
KIND=input
TRUTH_DIVERGE='^get_or_create_logger\('
# plain: the registry's lookup finds the name (good) or not (bad) in
# libstdc++'s string comparison, instrumented there (README.md)
TRUTH_DIVERGE_PLAIN='std::operator==<char>\('
TRUTH_CAUSE='^get_or_create_logger\('
TAGS='cxx thread race'
SINGLE_THREADED=0

# the compiled library's four sources (Debian's tree: the system's fmt)
# with this folder's app.cc, as spdlog-movedview
build() {
    rb_cc_prog "$2/app" "-DSPDLOG_COMPILED_LIB -DSPDLOG_FMT_EXTERNAL -Iinclude" \
        "-lfmt -pthread" "$CASE/app.cc" src/spdlog.cpp src/async.cpp \
        src/file_sinks.cpp src/color_sinks.cpp
}

run_good() { rm -f csv_reader.log; "$1/app" 300; }
run_bad() { rm -f csv_reader.log; "$1/app" 020; }

needs() {
    [ -e /usr/include/fmt/core.h ] || { echo "needs libfmt-dev"; exit 1; }
}
