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

# jsoncpp_build SRC OUT : the library's three files and jsontestrunner
# (the package's own test program), no CMake
jsoncpp_build() {
    cd "$1" || return 1
    for f in src/lib_json/json_reader.cpp src/lib_json/json_value.cpp \
             src/lib_json/json_writer.cpp src/jsontestrunner/main.cpp; do
        echo "$f"
    done | xargs -P "${JOBS:-2}" -I{} sh -c \
        'echo "c++ {}"; ${CXX:-g++} -std=c++11 $TT_CFLAGS -Iinclude -Isrc/lib_json -c -o "$(basename {} .cpp).o" {}' ||
        return 1
    ${CXX:-g++} -o "$2/jsontestrunner" json_reader.o json_value.o \
        json_writer.o main.o $TT_LDFLAGS
}

build() { jsoncpp_build "$1" "$2"; }

# jsontestrunner wants a name ending in .json and writes beside it
run_good() {
    cp "$CASE/good.json" config.json
    "$1/jsontestrunner" config.json
}

run_bad() {
    cp "$CASE/bad.json" config.json
    "$1/jsontestrunner" config.json
}
