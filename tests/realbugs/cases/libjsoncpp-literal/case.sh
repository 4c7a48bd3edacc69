# libjsoncpp-literal: a config file that says `trve` instead of `true`;
# OurReader::match returns false, the token becomes an error token and
# readValue reports a syntax error (README.md argues the ground truth)
PKG=libjsoncpp
KIND=input
TRUTH_DIVERGE='OurReader::readValue(\(\))?$'
TRUTH_CAUSE='OurReader::(match|readToken)(\(.*\))?$'
# per mode (README.md): match is a call of its own in the plain build and
# inlined into readToken in the values build
TRUTH_CAUSE_PLAIN='OurReader::match(\(.*\))?$'
TRUTH_CAUSE_VALUES='OurReader::readToken(\(.*\))?$'
TAGS='cxx return-value'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/libjsoncpp.sh

# jsontestrunner wants a name ending in .json and writes beside it
run_good() {
    cp "$CASE/good.json" config.json
    "$1/jsontestrunner" config.json
}

run_bad() {
    cp "$CASE/bad.json" config.json
    "$1/jsontestrunner" config.json
}
