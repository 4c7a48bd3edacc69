# pkgs/pbzip2.sh - how the pbzip2 cases build (sourced before a case.sh
# whose PKG is pbzip2): pbzip2's three C++ files and libbz2 from Debian's
# bzip2 source package (fetched like the case's own source, 1.0.8-5), all
# with the mode's flags, so the library's decoder is traced too.
build() {
    bz=$(rb_fetch bzip2) || return 1
    rb_cc_prog "$2/pbzip2" "-I$bz -pthread -D_POSIX_PTHREAD_SEMANTICS -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64 -DUSE_STACKSIZE_CUSTOMIZATION" \
        "-pthread" pbzip2.cpp BZ2StreamScanner.cpp ErrorContext.cpp \
        "$bz/blocksort.c" "$bz/huffman.c" "$bz/crctable.c" "$bz/randtable.c" \
        "$bz/compress.c" "$bz/decompress.c" "$bz/bzlib.c"
}

# pbzip2_input OUT : data.bin (300000 bytes no compressor shrinks: two
# small linear congruential generators added) and data.bz2, made by the
# pbzip2 just built (untraced) with 100k blocks: three bzip2 streams, each
# one block, each starting on a byte ("BZh9", then the block magic
# 1AY&SY, then the block's stored CRC, 4 bytes)
pbzip2_input() {
    LC_ALL=C awk 'BEGIN { x = 1; y = 1
        for (i = 0; i < 300000; i++) {
            x = (x * 75 + 74) % 65537; y = (y * 171) % 30269
            printf "%c", (x + y) % 255 + 1 } }' >data.bin
    env -u TTCAP_OUT "$1/pbzip2" -b1 -p2 -k -c data.bin >data.bz2
}

# stream_offset N : the byte offset of the Nth stream header (1-based) in data.bz2
stream_offset() {
    LC_ALL=C grep -obUa 'BZh91AY&SY' data.bz2 | sed -n "$1p" | cut -d: -f1
}
