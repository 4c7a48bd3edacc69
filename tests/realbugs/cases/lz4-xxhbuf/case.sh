# lz4-xxhbuf: a fault patch (fault.patch) that mimics a real bug class
# (a checksum taken over the wrong buffer): the LZ4 frame encoder hashes
# srcSize bytes of its output buffer instead of the input for the content
# checksum; the decoder reads the frame back later and rejects it
# (README.md argues the ground truth)
PKG=lz4
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^LZ4F_decompress$'
# correction (README.md): in the -pg build LZ4F_decompress inlines
# LZ4F_resetDecompressionContext (objdump), so no call differs there
TRUTH_DIVERGE_VALUES='^main$'
TRUTH_CAUSE='^LZ4F_compressUpdateImpl(\.|$)'
TAGS='regression corruption'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/lz4round" "-Ilib" "" lib/lz4.c lib/lz4hc.c lib/lz4frame.c \
        lib/xxhash.c "$CASE/lz4round.c"
}

# about 350 KB of text: six blocks of at most 64 KB
run_good() {
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 15000; i++) printf "entry %d: value %d\n", i, (i * 7919) % 10007 }' >data.txt
    "$1/lz4round" data.txt
}
run_bad() { run_good "$@"; }
