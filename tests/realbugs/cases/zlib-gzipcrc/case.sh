# zlib-gzipcrc: a fault patch (fault.patch) that mimics a real bug class
# (a byte order mixed up): deflate writes the gzip trailer's CRC-32 most
# significant byte first (the zlib trailer's order) instead of least
# significant first; inflate reads the stream back later and reports
# "incorrect data check" (README.md argues the ground truth)
PKG=zlib
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^main$'
TRUTH_CAUSE='^deflate$'
TAGS='regression corruption return-value'
SINGLE_THREADED=1

# the library's sources and zgz.c (this folder), no configure
build() {
    rb_cc_prog "$2/zgz" "-I." "" adler32.c crc32.c deflate.c inflate.c \
        infback.c inftrees.c inffast.c trees.c zutil.c "$CASE/zgz.c"
}

# about 37 KB of text, level 6
run_good() {
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 1500; i++) printf "record %d: value %d\n", i, (i * 7919) % 10007 }' >data.txt
    "$1/zgz" data.txt
}
run_bad() { run_good "$@"; }
