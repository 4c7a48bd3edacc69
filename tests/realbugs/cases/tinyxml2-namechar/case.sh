# tinyxml2-namechar: a fault patch (fault.patch) that mimics a real bug
# class (a character left out of a character class): XMLUtil::IsNameChar
# no longer accepts '-', so the attribute name data-id ends at "data" and
# the document is rejected (README.md argues the ground truth)
PKG=tinyxml2
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='StrPair::ParseName\('
# -pg build: ParseName makes no traced call (isalpha is libc's, the name
# tests are inlined); XMLAttribute::ParseDeep's calls part (objdump)
TRUTH_DIVERGE_VALUES='XMLAttribute::ParseDeep\('
TRUTH_CAUSE='XMLUtil::IsNameChar\('
TRUTH_CAUSE_VALUES='XMLUtil::IsNameChar\(|StrPair::ParseName\('
TAGS='cxx regression'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/readattr" "-I." "" tinyxml2.cpp "$CASE/readattr.cpp"
}

run_good() {
    printf '<?xml version="1.0"?>\n<config>\n  <entry name="x" data-id="7"/>\n</config>\n' >conf.xml
    "$1/readattr" conf.xml
}
run_bad() { run_good "$@"; }
