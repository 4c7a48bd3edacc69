# c-blosc-inittwice: an upstream fix taken out: c-blosc 1.9.2's check in
# blosc_init ("Check whether Blosc is actually initialized before
# blosc_init(), blosc_destroy() and blosc_free_resources()", Blosc.jl #19:
# a module initialised twice). An archiver sets Blosc up and compresses
# with 2 threads; its codec plugin calls blosc_init again; the second
# initialisation orphans the running pool, and after blosc_destroy the
# archiver still has 3 threads and refuses to fork into the background
# (README.md argues the ground truth)
PKG=c-blosc
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='^blosc_init$'
# values: my_malloc inlined into blosc_init, so the second blosc_init makes
# no traced call in either build; the calls part in the next compression's
# blosc_set_nthreads_ (objdump; README.md)
TRUTH_DIVERGE_VALUES='^blosc_set_nthreads_$'
TRUTH_CAUSE='^blosc_init$'
TAGS='regression thread order'
SINGLE_THREADED=0

# the library's own sources with this folder's app.c, zlib from the system
# (as Debian's build: PREFER_EXTERNAL_ZLIB)
build() {
    rb_cc_prog "$2/app" "-DHAVE_ZLIB -Iblosc" "-lz -pthread" "$CASE/app.c" \
        blosc/blosc.c blosc/blosclz.c blosc/shuffle.c blosc/shuffle-generic.c \
        blosc/bitshuffle-generic.c blosc/fastcopy.c
}

run_good() { rm -f archive.blo; "$1/app"; }
run_bad() { run_good "$@"; }

needs() {
    [ -e /usr/include/zlib.h ] || { echo "needs zlib1g-dev"; exit 1; }
}
