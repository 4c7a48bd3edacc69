# libzstd-checksum: `zstd -t` on a 1 MB frame whose content checksum has
# one wrong byte: millions of identical calls, then ZSTD_decompressContinue
# returns checksum_wrong and the CLI reports "Decoding error (36)"
# (README.md argues the ground truth)
PKG=libzstd
KIND=input
# where the calls first differ depends on inlining (README.md): the plain
# build calls ZSTD_DCtx_trace_end in the good run only; in the values
# build that hook is inlined away and the first traced calls that differ
# are in the CLI's loop
TRUTH_DIVERGE='^(ZSTD_decompressContinue|FIO_decompressZstdFrame)$'
TRUTH_DIVERGE_PLAIN='^ZSTD_decompressContinue$'
# values: with -pg -mfentry alone FIO_decompressZstdFrame's code ran
# inlined in FIO_decompressSrcFile, which was then the truth (correction
# after the first run, README.md); with ttcap-values.pc's flags (session
# 6) values mode parts in ZSTD_decompressContinue as plain mode does
TRUTH_DIVERGE_VALUES='^(ZSTD_decompressContinue|FIO_decompressZstdFrame|FIO_decompressSrcFile)$'
TRUTH_CAUSE='^ZSTD_decompressContinue(\.part\.[0-9]+)?$'
TAGS='return-value big'
SINGLE_THREADED=1

# the zstd command (programs/Makefile compiles the library's sources into
# it), without zlib/lzma/lz4 support
build() {
    cd "$1" || return 1
    make -s -C programs -j"${JOBS:-2}" zstd CFLAGS="$TT_CFLAGS" \
        LDFLAGS="$TT_LDFLAGS" HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 || return 1
    cp programs/zstd "$2/zstd"
}

# the input: 16000 access-log lines (958 KB), one frame compressed by the
# zstd just built (untraced), level 3, content checksum on (the CLI's
# default)
mkinput() {
    LC_ALL=C awk 'BEGIN { for (i = 1; i <= 16000; i++)
        printf "%06d GET /api/v1/items/%d?page=%d 200 %d ms user=u%03d\n",
            i, (i * 7919) % 100003, i % 37, (i * 31) % 977, i % 211 }' >data.txt
    env -u TTCAP_OUT "$1/zstd" -q -3 -c data.txt >data.zst
}

# flipbyte FILE OFFSET : invert one byte in place
flipbyte() {
    v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf '%03o' $((v ^ 255)))" |
        dd of="$1" bs=1 seek="$2" count=1 conv=notrunc 2>/dev/null
}

# -t: decompress and check, write nothing; --no-asyncio: no I/O threads
run_good() {
    mkinput "$1"
    "$1/zstd" -t --no-asyncio data.zst
}

# the frame's last 4 bytes are its content checksum (XXH64, low 32 bits);
# invert the last one
run_bad() {
    mkinput "$1"
    flipbyte data.zst $(( $(wc -c <data.zst) - 1 ))
    "$1/zstd" -t --no-asyncio data.zst
}
