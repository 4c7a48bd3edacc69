# libconfig-floatprec: a fault patch (fault.patch) that brings back a real
# regression of libconfig 1.6 (upstream issues #58 "float precision" and
# #81 "Regression in float_precision commit printf format": floats written
# with "%.*f" and a default precision of 2): __config_write_value saves a
# load cell's gain 4.1837 as 4.18; the rig reads its calibration back later
# and the cell misses its reference weight (README.md argues the ground
# truth)
PKG=libconfig
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^check_cell(\(|\.|$)'
# values: check_cell and report_drift inlined into main (nm; README.md)
TRUTH_DIVERGE_VALUES='^main$'
TRUTH_CAUSE='^__config_write_value(\.|$)'
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# the C library's sources (as configure finds glibc: newlocale, uselocale,
# freelocale) and the C++ wrapper with this folder's app.cc
build() {
    cd lib || return 1
    rb_cc_prog "$2/app" "-DHAVE_NEWLOCALE -DHAVE_USELOCALE -DHAVE_FREELOCALE -I." "" \
        "$CASE/app.cc" libconfigcpp.cc libconfig.c scanctx.c strbuf.c grammar.c scanner.c
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }
