# bzip2-level0: a .bz2 whose header's block-size digit is '0' ("BZh0", which
# no bzip2 writes: the digit is 1-9) instead of '9': BZ2_decompress rejects
# the stream before allocating its tables (README.md argues the truth)
PKG=bzip2
KIND=input
TRUTH_DIVERGE='^BZ2_decompress$'
TRUTH_CAUSE='^BZ2_decompress$'
TAGS='input-char'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/bzcat1" "-I." "" blocksort.c huffman.c crctable.c \
        randtable.c compress.c decompress.c bzlib.c "$CASE/bzcat1.c"
}

mkinput() {
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 1500; i++) printf "record %d: value %d\n", i, (i * 7919) % 10007 }' |
        env -u TTCAP_OUT "$1/bzcat1" -z >data.bz2
}

run_good() {
    mkinput "$1"
    "$1/bzcat1" data.bz2
}

# byte 3 of the stream, the block-size digit '9', set to '0'
run_bad() {
    mkinput "$1"
    printf '0' | dd of=data.bz2 bs=1 seek=3 count=1 conv=notrunc 2>/dev/null
    "$1/bzcat1" data.bz2
}
