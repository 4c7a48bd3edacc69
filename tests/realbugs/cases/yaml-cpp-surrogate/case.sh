# yaml-cpp-surrogate: a double-quoted YAML scalar with the escape \uD800
# (a lone UTF-16 surrogate, not a Unicode character) instead of \u00e9:
# yaml-cpp throws a ParserException from Exp::Escape and the exception
# unwinds the scanner (README.md argues the ground truth)
PKG=yaml-cpp
KIND=input
TRUTH_DIVERGE='Exp::Escape(\[abi:cxx11\])?\(YAML::Stream&, int\)'
TRUTH_CAUSE='Exp::Escape(\[abi:cxx11\])?\(YAML::Stream&, int\)'
TAGS='cxx input-char exception'
SINGLE_THREADED=1

# the library's sources (no CMake) and readconf.cpp
build() {
    rb_cc_prog "$2/readconf" "-std=c++11 -Iinclude -Isrc" "" src/*.cpp \
        src/contrib/graphbuilder.cpp src/contrib/graphbuilderadapter.cpp \
        "$CASE/readconf.cpp"
}

run_good() {
    printf 'version: 3\nname: "caf\\u00e9"\nitems: [1, 2, 3]\n' >conf.yaml
    "$1/readconf" conf.yaml
}
run_bad() {
    printf 'version: 3\nname: "caf\\uD800"\nitems: [1, 2, 3]\n' >conf.yaml
    "$1/readconf" conf.yaml
}
