# zlib-storedlen: a fault patch (fault.patch) that mimics a real bug class
# (a one's complement forgotten): deflate_stored writes a stored block's
# NLEN high byte uncomplemented; inflate reads the stream back later and
# rejects it (README.md argues the ground truth)
PKG=zlib
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^inflate$'
TRUTH_CAUSE='^deflate_stored(\.|$)'
TAGS='regression corruption'
SINGLE_THREADED=1

# the library's sources and zround.c (this folder), no configure
build() {
    rb_cc_prog "$2/zround" "-I." "" adler32.c crc32.c deflate.c inflate.c \
        infback.c inftrees.c inffast.c trees.c zutil.c "$CASE/zround.c"
}

# 20000 bytes (two small linear congruential generators added), stored
# (level 0): one stored block
run_good() {
    LC_ALL=C awk 'BEGIN { x = 1; y = 1
        for (i = 0; i < 20000; i++) {
            x = (x * 75 + 74) % 65537; y = (y * 171) % 30269
            printf "%c", (x + y) % 255 + 1 } }' >data.bin
    "$1/zround" data.bin 0
}
run_bad() { run_good "$@"; }
