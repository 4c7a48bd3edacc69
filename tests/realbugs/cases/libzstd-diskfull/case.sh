# libzstd-diskfull: `zstd -d -c` of a 600 KB frame to a full disk
# (/dev/full) instead of /dev/null: the CLI's asynchronous writer thread
# finds fwrite short and exits the process while the main thread is
# decoding (README.md argues the ground truth)
PKG=libzstd
KIND=input
TRUTH_DIVERGE='^AIO_fwriteSparse$'
TRUTH_CAUSE='^AIO_fwriteSparse$'
# values build: with ttcap-values.pc's flags (-fno-inline-functions-called-once)
# AIO_fwriteSparse is a function of its own, the source's truth; with bare
# -pg -mfentry (RB_VALUES_CFLAGS) gcc inlines it into its only caller
# AIO_WritePool_executeWriteJob, whose frame then runs its code (nm, README.md)
TRUTH_DIVERGE_VALUES='^(AIO_fwriteSparse|AIO_WritePool_executeWriteJob)$'
TRUTH_CAUSE_VALUES='^(AIO_fwriteSparse|AIO_WritePool_executeWriteJob)$'
TAGS='thread'
SINGLE_THREADED=0

# the zstd command (programs/Makefile compiles the library's sources into
# it), without zlib/lzma/lz4 support
build() {
    cd "$1" || return 1
    make -s -C programs -j"${JOBS:-2}" zstd CFLAGS="$TT_CFLAGS" \
        LDFLAGS="$TT_LDFLAGS" HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 || return 1
    cp programs/zstd "$2/zstd"
}

# the input: 600000 bytes zstd cannot compress (two small linear
# congruential generators added), one frame made by the zstd just built
# (untraced): about 600 KB, above the 3 x 128 KiB from which the CLI
# reads and writes in I/O threads
mkinput() {
    LC_ALL=C awk 'BEGIN { x = 1; y = 1
        for (i = 0; i < 600000; i++) {
            x = (x * 75 + 74) % 65537; y = (y * 171) % 30269
            printf "%c", (x + y) % 255 + 1 } }' >data.bin
    env -u TTCAP_OUT "$1/zstd" -q -3 -c data.bin >data.zst
}

run_good() {
    mkinput "$1"
    "$1/zstd" -d -c data.zst >/dev/null
}

run_bad() {
    mkinput "$1"
    "$1/zstd" -d -c data.zst >/dev/full
}
