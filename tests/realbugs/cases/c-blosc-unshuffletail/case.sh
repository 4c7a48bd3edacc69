# c-blosc-unshuffletail: an upstream fix taken out: c-blosc 1.18.1's copy of
# the leftovers in blosc_internal_bitunshuffle, the reading side (python-blosc
# #220: bitshuffle corrupts a buffer whose size is not a multiple of the type
# size). A sensor logger archives 40 records (N doubles and a 4-byte
# checksum) with bitshuffle and 2 threads and reads them back into one
# reused buffer: record 32's last 4 bytes are never written by the
# decompression and keep the previous record's bytes (README.md argues the
# ground truth)
PKG=c-blosc
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='^check_record(\.|$)'
# values: check_record and record_sum inlined into export_archive (objdump; README.md)
TRUTH_DIVERGE_VALUES='^export_archive(\.|$)'
TRUTH_CAUSE='^blosc_internal_bitunshuffle$'
TAGS='regression thread'
SINGLE_THREADED=0

# the library's own sources (blosclz, the generic shuffles, zlib from the
# system as Debian's build takes it: PREFER_EXTERNAL_ZLIB) with this
# folder's app.c
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
