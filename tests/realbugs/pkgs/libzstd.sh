# pkgs/libzstd.sh - sourced before a case.sh whose PKG is libzstd. The
# cases around zstd's thread pool (lib/common/pool.c: the pool ZSTDMT's
# compression jobs and the dictionary builder run on) build it the same
# way; the cases of the zstd command (libzstd-checksum, libzstd-diskfull)
# define their own build.
# zstd_pool_build OUT : pool.c and what it needs (threads on), with the
# case's $CASE/app.c, into OUT/app
zstd_pool_build() {
    rb_cc_prog "$1/app" "-DZSTD_MULTITHREAD -Ilib/common -pthread" "-pthread" \
        "$CASE/app.c" lib/common/pool.c lib/common/threading.c \
        lib/common/zstd_common.c lib/common/error_private.c lib/common/debug.c
}
