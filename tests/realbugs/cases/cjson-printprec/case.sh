# cjson-printprec: a fault patch (fault.patch) that mimics a real bug class
# (a negation dropped): print_number keeps its 15-digit form exactly when
# that form does NOT read back as the same double, so a 17-digit number is
# saved with 15 digits and parsed back as another number (README.md argues
# the ground truth)
PKG=cjson
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^verify$'
TRUTH_CAUSE='^print_number(\.|$)'
# -pg build: print_number (and compare_double) inlined into print_value (nm)
TRUTH_CAUSE_VALUES='^(print_number|print_value)(\.|$)'
TAGS='regression corruption'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/jround" "-I." "-lm" cJSON.c "$CASE/jround.c"
}

run_good() {
    "$1/jround" 0.12345678901234567
}
run_bad() { run_good "$@"; }
