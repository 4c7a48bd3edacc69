# jansson-surrogate: one build, two inputs: a records file whose record
# 200 holds a UTF-8 sequence (good) or a UTF-16 surrogate encoded as UTF-8
# (bad); jansson's reader stream_get rejects it on utf8_check_full's
# answer, a helper below it (README.md argues the ground truth)
PKG=jansson
KIND=input
TRUTH_DIVERGE='^stream_get$'
TRUTH_CAUSE='^utf8_check_full$'
TAGS='input-char return-value'
SINGLE_THREADED=1

# the static library (CMake, the mode's flags only) and this folder's app.c
build() {
    cmake -S . -B tt-build -DCMAKE_BUILD_TYPE=None -DJANSSON_BUILD_DOCS=OFF \
        -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF -DJANSSON_INSTALL=OFF \
        -DCMAKE_C_FLAGS="$TT_CFLAGS" >/dev/null || return 1
    cmake --build tt-build -j"${JOBS:-2}" --target jansson >/dev/null || return 1
    rb_cc_prog "$2/app" "-Itt-build/include" "tt-build/lib/libjansson.a" "$CASE/app.c"
}

# record 200's name: caf + U+20AC in UTF-8
run_good() {
    sh "$CASE/mkrecords.sh" '\342\202\254' && "$1/app" records.json
}

# caf + U+D800 encoded as UTF-8 (three bytes, as CESU-8 writes it)
run_bad() {
    sh "$CASE/mkrecords.sh" '\355\240\200' && "$1/app" records.json
}

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
