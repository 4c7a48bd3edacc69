# c-blosc-destroytwice: an upstream fix taken out: c-blosc 1.9.2's check in
# blosc_destroy ("Check whether Blosc is actually initialized before
# blosc_init(), blosc_destroy() and blosc_free_resources()", Blosc.jl #19).
# A backup agent's backup thread closes the codec (blosc_destroy) when it
# is done; the main thread, at shutdown, releases the library again: the
# second blosc_destroy frees a pool that is gone (README.md argues the
# ground truth)
PKG=c-blosc
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='^blosc_destroy$'
TRUTH_CAUSE='^blosc_destroy$'
TAGS='regression thread order crash'
SINGLE_THREADED=0

# the library's own sources with this folder's app.c, zlib from the system
# (as Debian's build: PREFER_EXTERNAL_ZLIB)
build() {
    rb_cc_prog "$2/app" "-DHAVE_ZLIB -Iblosc" "-lz -pthread" "$CASE/app.c" \
        blosc/blosc.c blosc/blosclz.c blosc/shuffle.c blosc/shuffle-generic.c \
        blosc/bitshuffle-generic.c blosc/fastcopy.c
}

run_good() { rm -f backup.blo backup.idx; "$1/app"; }
run_bad() { run_good "$@"; }

needs() {
    [ -e /usr/include/zlib.h ] || { echo "needs zlib1g-dev"; exit 1; }
}
