# double-conversion-halfway: a fault patch (fault.patch) that mimics a real
# bug class (an off-by-one bound: the "too close to half-way" window cut
# in half): DiyFpStrtod claims its guess is exact when it may be one ulp
# low, so StrtodTrimmed skips the bignum check and returns the lower
# double (README.md argues the ground truth)
PKG=double-conversion
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='StrtodTrimmed\('
# erratum (README.md): in the plain build ComputeGuess calls the inline
# Double::Infinity() when DiyFpStrtod says no, a frame of its own there
TRUTH_DIVERGE_PLAIN='ComputeGuess\('
TRUTH_CAUSE='DiyFpStrtod\('
TAGS='cxx regression return-value'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/numfmt" "-I." "" double-conversion/bignum-dtoa.cc \
        double-conversion/bignum.cc double-conversion/cached-powers.cc \
        double-conversion/double-to-string.cc double-conversion/fast-dtoa.cc \
        double-conversion/fixed-dtoa.cc double-conversion/string-to-double.cc \
        double-conversion/strtod.cc "$CASE/numfmt.cc"
}

run_good() {
    "$1/numfmt" 9214843084008499
}
run_bad() { run_good "$@"; }
