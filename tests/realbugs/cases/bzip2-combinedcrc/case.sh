# bzip2-combinedcrc: a fault patch (fault.patch) that mimics a real bug
# class (two steps of a checksum combined in the wrong order): the
# compressor's stream CRC is xored before it is rotated, so the stream
# trailer holds a wrong combined CRC; the decompressor reads it back
# later and reports a data error (README.md argues the ground truth)
PKG=bzip2
KIND=patch
PATCH=fault.patch
REVERSE=1
# erratum (README.md): the two paths call BZ2_bzDecompressEnd from two
# call sites (bzlib.c:1333, 1346), so the calls part one frame below main
TRUTH_DIVERGE='^BZ2_bzBuffToBuffDecompress$'
TRUTH_CAUSE='^BZ2_compressBlock$'
TAGS='regression corruption return-value'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/bzround" "-I." "" blocksort.c huffman.c crctable.c \
        randtable.c compress.c decompress.c bzlib.c "$CASE/bzround.c"
}

# about 37 KB of text: one bzip2 block
run_good() {
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 1500; i++) printf "record %d: value %d\n", i, (i * 7919) % 10007 }' >data.txt
    "$1/bzround" data.txt
}
run_bad() { run_good "$@"; }
