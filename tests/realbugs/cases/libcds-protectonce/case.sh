# libcds-protectonce: a fault patch (fault.patch): cds::gc::HP::Guard::
# protect(toGuard, f) loads the pointer and stores f(pointer) in the
# hazard pointer once, without loading it again to check that it was not
# replaced (and reclaimed) in between: the hazard-pointer protocol's
# validation step dropped. The application (confreload.cpp: a reader
# thread and the main thread, steps handed over with a condition variable
# in the guard's functor, no sleeps) reads a reclaimed configuration
# (README.md argues the ground truth)
PKG=libcds
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='cds::gc::HP::Guard::protect<'
# values: protect is inlined into the reader thread's function (nm,
# objdump): its calls part there
TRUTH_DIVERGE_VALUES='\(anonymous namespace\)::reader\(|cds::gc::HP::Guard::protect<'
TRUTH_CAUSE='cds::gc::HP::Guard::protect<'
TRUTH_CAUSE_VALUES='\(anonymous namespace\)::reader\(|cds::gc::HP::Guard::protect<'
TAGS='cxx thread race corruption regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libcds.sh, with this folder's confreload.cpp
build() { libcds_build "$2/confreload" "$CASE/confreload.cpp"; }

run_good() { "$1/confreload"; }
run_bad() { run_good "$@"; }
