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

# jsoncpp_build SRC OUT : the library's three files and jsontestrunner
# (the package's own test program: parse a file, write it back, parse
# that again), no CMake
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
