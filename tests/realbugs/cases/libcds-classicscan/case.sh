# libcds-classicscan: a real bug of the shipped source, fixed by this
# folder's fix.patch (good = with it, bad = the tree as shipped): the
# classic scan of libcds's hazard-pointer SMR (cds::gc::HP) asks whether
# the *first* retired pointer is guarded, once per retired pointer,
# instead of the pointer at hand; a guarded pointer retired after an
# unguarded one is disposed of while a reader holds it. The application
# (confswap.cpp: a reader thread and the main thread, steps handed over
# with a condition variable, no sleeps) finds its guarded configuration
# cleared (README.md argues the ground truth)
PKG=libcds
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='cds::gc::hp::smr::classic_scan\('
TRUTH_CAUSE='cds::gc::hp::smr::classic_scan\('
TAGS='cxx thread race corruption'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libcds.sh (the library's Linux sources), with
# this folder's confswap.cpp
build() { libcds_build "$2/confswap" "$CASE/confswap.cpp"; }

run_good() { "$1/confswap"; }
run_bad() { run_good "$@"; }
