# pugixml-dblprec: a fault patch (fault.patch) that mimics a real bug class
# (printf's default precision: "%g" keeps 6 significant digits): pugixml
# writes a double attribute with "%g" instead of "%.*g" and precision 17,
# and the value read back later is another double (README.md argues the
# ground truth)
PKG=pugixml
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^sync_limit(\(|$)'
TRUTH_CAUSE='set_value_convert'
# -pg build: set_value_convert has no symbol in pugixml.o (inlined into
# xml_attribute::set_value(double), nm; README.md)
TRUTH_CAUSE_VALUES='set_value_convert|xml_attribute::set_value\(double\)'
TAGS='cxx regression corruption'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/limits" "-Isrc" "" src/pugixml.cpp "$CASE/limits.cpp"
}

run_good() {
    "$1/limits" 0.1 0.2
}
run_bad() { run_good "$@"; }
