# double-conversion-fastpath: a fault patch (fault.patch) that mimics a real
# bug class (one variable for another: ten_kappa for unit): RoundWeed, the
# last check of Grisu3's shortest digits, rejects nearly every result, so
# DoubleToAscii falls back to the exact but slow BignumDtoa: the same
# output, another path (a silent performance regression) (README.md
# argues the ground truth)
PKG=double-conversion
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='DoubleToStringConverter::DoubleToAscii\('
# plain build: FastDtoa's `buffer[*length] = '\0'` on success calls the
# inline Vector<char>::operator[], a frame of its own there (README.md)
TRUTH_DIVERGE_PLAIN='double_conversion::FastDtoa\('
TRUTH_CAUSE='RoundWeed\('
# -pg build: RoundWeed is inlined into DigitGen (objdump, README.md)
TRUTH_CAUSE_VALUES='RoundWeed\(|DigitGen\('
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
    "$1/numfmt" 0.1
}
run_bad() { run_good "$@"; }
