# libjsoncpp-bigfloat: a number too large for a double (1e+9999, which
# jsoncpp's own writer prints for infinity) is a parse error in 1.9.5;
# upstream's fix (PR #1353, jsoncpp 1.9.6) reads it as infinity
# (README.md argues the ground truth)
PKG=libjsoncpp
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='OurReader::decodeDouble(\([^)]*Value&\))?$'
TRUTH_CAUSE='OurReader::decodeDouble(\([^)]*Value&\))?$'
TAGS='cxx regression'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/libjsoncpp.sh

# both builds read the same document (jsontestrunner wants a name ending
# in .json and writes .actual, .rewrite and .actual-rewrite beside it)
run_good() {
    cp "$CASE/probe.json" probe.json
    "$1/jsontestrunner" probe.json
}

run_bad() {
    cp "$CASE/probe.json" probe.json
    "$1/jsontestrunner" probe.json
}
