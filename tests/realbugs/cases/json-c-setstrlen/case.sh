# json-c-setstrlen: a fault patch (fault.patch): _json_object_set_string_len
# tests the length it already made positive (curlen) instead of the
# object's stored length when a shorter string goes into a string object
# whose text lives in a separate buffer, so it stores the new length
# positive: the object then reads its text from the inline bytes, which
# hold the buffer's pointer (README.md argues the ground truth)
PKG=json-c
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^check_status$'
# plain build: the good build's changed line calls the static inline
# JC_STRING, which -finstrument-functions keeps hooks for: the calls part
# in the setter itself (README.md, erratum 2, argued from the source)
TRUTH_DIVERGE_PLAIN='^_json_object_set_string_len$'
TRUTH_CAUSE='^_json_object_set_string_len$'
# -pg build: _json_object_set_string_len is inlined into its callers (nm:
# no symbol), json_object_set_string is the frame that holds it
TRUTH_CAUSE_VALUES='^(json_object_set_string|_json_object_set_string_len)$'
TAGS='regression corruption'
SINGLE_THREADED=1

# the static library with CMake (only the mode's flags), then app.c
build() {
    cmake -S . -B tt-build -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=OFF \
        -DBUILD_STATIC_LIBS=ON -DDISABLE_WERROR=ON -DBUILD_TESTING=OFF \
        -DCMAKE_C_FLAGS="$TT_CFLAGS" -DCMAKE_EXE_LINKER_FLAGS="$TT_LDFLAGS" >/dev/null || return 1
    cmake --build tt-build -j"${JOBS:-2}" --target json-c >/dev/null || return 1
    rb_cc_prog "$2/app" "-I. -Itt-build" "tt-build/libjson-c.a" "$CASE/app.c"
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
