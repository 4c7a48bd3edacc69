# tinyxml2-hexattr: a fault patch (fault.patch) that mimics a real bug
# class: the hex-prefix test of tinyxml2 9.0's new hex attribute support
# (XMLUtil::IsPrefixHex) made case-sensitive, so rows="0X3" reads as
# decimal 0 (README.md argues the ground truth)
PKG=tinyxml2
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^build(\(|$)'
TRUTH_CAUSE='IsPrefixHex'
# -pg build: IsPrefixHex (inline, in the class in tinyxml2.h) has no
# frame of its own in tinyxml2.o (README.md); its code runs in ToInt's
TRUTH_CAUSE_VALUES='IsPrefixHex|XMLUtil::ToInt\('
TAGS='cxx regression arg-chain'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/grid" "-I." "" tinyxml2.cpp "$CASE/grid.cpp"
}

run_good() {
    printf '<?xml version="1.0"?>\n<grid rows="0X3" cols="2"/>\n' >grid.xml
    "$1/grid" grid.xml
}
run_bad() { run_good "$@"; }
