# tinyxml2-endtag: <entry>7</entri> (a typo in a closing tag) instead of
# <entry>7</entry>: XMLNode::ParseDeep finds the end tag's name is not the
# element's and reports XML_ERROR_MISMATCHED_ELEMENT (README.md argues the
# ground truth)
PKG=tinyxml2
KIND=input
TRUTH_DIVERGE='XMLNode::ParseDeep\('
TRUTH_CAUSE='XMLNode::ParseDeep\('
TAGS='cxx input-char'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/readentry" "-I." "" tinyxml2.cpp "$CASE/readentry.cpp"
}

run_good() {
    printf '<?xml version="1.0"?>\n<config>\n  <entry>7</entry>\n  <other/>\n</config>\n' >conf.xml
    "$1/readentry" conf.xml
}
run_bad() {
    printf '<?xml version="1.0"?>\n<config>\n  <entry>7</entri>\n  <other/>\n</config>\n' >conf.xml
    "$1/readentry" conf.xml
}
