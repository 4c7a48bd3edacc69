# spdlog-movedview: a fault patch (fault.patch) that mimics a real bug
# class, string views left pointing into a moved-from object:
# log_msg_buffer's move assignment no longer re-points the message's views
# into its own buffer, so a queued message's payload view points into the
# dead message on the logging thread's stack; the worker thread writes
# other messages' text and the application finds every line wrong when it
# reads the file back (README.md argues the ground truth)
PKG=spdlog
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='log_msg_buffer::operator=\(spdlog::details::log_msg_buffer&&\)'
# values: update_string_views inlined into the operator (objdump); the
# first calls that differ are the application's check (README.md)
TRUTH_DIVERGE_VALUES='^check_log\('
TRUTH_CAUSE='log_msg_buffer::operator=\(spdlog::details::log_msg_buffer&&\)'
TAGS='cxx thread corruption regression'
SINGLE_THREADED=0

# the compiled library's four sources (Debian's tree: the system's fmt)
# with this folder's app.cc and check.cc
build() {
    rb_cc_prog "$2/app" "-DSPDLOG_COMPILED_LIB -DSPDLOG_FMT_EXTERNAL -Iinclude" \
        "-lfmt -pthread" "$CASE/app.cc" "$CASE/check.cc" src/spdlog.cpp src/async.cpp \
        src/file_sinks.cpp src/color_sinks.cpp
}

run_good() { rm -f orders.log; "$1/app"; }
run_bad() { run_good "$@"; }

needs() {
    [ -e /usr/include/fmt/core.h ] || { echo "needs libfmt-dev"; exit 1; }
}
