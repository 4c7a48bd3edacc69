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

# the library's Linux sources (src/, as CMakeLists.txt's SOURCES less the
# HP-UX, OS X and Windows files) with this folder's confswap.cpp
build() {
    rb_cc_prog "$2/confswap" "-I. -mcx16" "-pthread" "$CASE/confswap.cpp" \
        src/init.cpp src/hp.cpp src/dhp.cpp src/thread_data.cpp \
        src/topology_linux.cpp src/urcu_gp.cpp src/urcu_sh.cpp
}

run_good() { "$1/confswap"; }
run_bad() { run_good "$@"; }
