# nlohmann-json3-surrogate: a fault patch (fault.patch) that mimics a real
# bug class (a magic constant "simplified"): the serializer writes the high
# surrogate of a code point above U+FFFF as 0xD800 + (cp >> 10) instead of
# 0xD7C0 + (cp >> 10), which is still a valid surrogate pair; the record
# read back holds another code point (README.md argues the ground truth)
PKG=nlohmann-json3
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^main$'
TRUTH_CAUSE='serializer<.*>::dump_escaped\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# header-only: jrt.cc (this folder) compiled against the tree's include/
build() {
    ${CXX:-c++} $TT_CFLAGS -Iinclude -o "$2/jrt" "$CASE/jrt.cc" $TT_LDFLAGS
}

run_good() { "$1/jrt"; }
run_bad() { run_good "$@"; }
