# lz4-headerhc: an LZ4 frame whose header checksum byte (HC) is wrong (its
# bits flipped, as by a transmission error) instead of intact:
# LZ4F_decodeHeader rejects the frame (README.md argues the ground truth)
PKG=lz4
KIND=input
TRUTH_DIVERGE='^LZ4F_decodeHeader$'
# -pg build: LZ4F_decodeHeader calls only XXH32 and memcpy (objdump), so
# no call differs in it; LZ4F_decompress's calls part
TRUTH_DIVERGE_VALUES='^LZ4F_decompress$'
TRUTH_CAUSE='^LZ4F_decodeHeader$'
TAGS='input-char'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/lz4cat1" "-Ilib" "" lib/lz4.c lib/lz4hc.c lib/lz4frame.c \
        lib/xxhash.c "$CASE/lz4cat1.c"
}

mkinput() {
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 15000; i++) printf "entry %d: value %d\n", i, (i * 7919) % 10007 }' |
        env -u TTCAP_OUT "$1/lz4cat1" -z >data.lz4
}

run_good() {
    mkinput "$1"
    "$1/lz4cat1" data.lz4
}

# byte 6 of the frame (magic 4 bytes, FLG, BD, then HC: no content size,
# no dictionary id) with all its bits flipped
run_bad() {
    mkinput "$1"
    b=$(od -An -tu1 -j 6 -N1 data.lz4 | tr -d ' ')
    printf "\\$(printf '%03o' $(( b ^ 255 )))" | dd of=data.lz4 bs=1 seek=6 count=1 conv=notrunc 2>/dev/null
    "$1/lz4cat1" data.lz4
}
