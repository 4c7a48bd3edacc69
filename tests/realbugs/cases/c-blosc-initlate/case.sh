# c-blosc-initlate: one build with c-blosc 1.9.2's check taken out of
# blosc_init (Blosc.jl #19: a module initialised twice; fault.patch, as
# c-blosc-inittwice's bad side), two timings of the archiver's plugin
# loader thread: it registers the codec plugin (a second blosc_init) at
# once, before the compression pool exists (harmless), or 1500 ms later,
# after the warm-up compression started the pool: the second
# initialisation orphans the pool, and after blosc_destroy the archiver
# still has 3 threads (README.md argues the ground truth)
PKG=c-blosc
KIND=input
TRUTH_DIVERGE='^blosc_set_nthreads_$'
TRUTH_CAUSE='^blosc_init$'
TAGS='thread order'
SINGLE_THREADED=0

# the library's own sources with the fault, and this folder's app.c; zlib
# from the system (as Debian's build: PREFER_EXTERNAL_ZLIB)
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    rb_cc_prog "$2/app" "-DHAVE_ZLIB -Iblosc" "-lz -pthread" "$CASE/app.c" \
        blosc/blosc.c blosc/blosclz.c blosc/shuffle.c blosc/shuffle-generic.c \
        blosc/bitshuffle-generic.c blosc/fastcopy.c
}

# the loader registers the plugin at once / 1500 ms after it starts
run_good() { rm -f archive.blo; "$1/app" 0000; }
run_bad() { rm -f archive.blo; "$1/app" 1500; }

needs() {
    [ -e /usr/include/zlib.h ] || { echo "needs zlib1g-dev"; exit 1; }
}
