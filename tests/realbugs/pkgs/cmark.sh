# pkgs/cmark.sh - how the cmark cases build (sourced before a case.sh
# whose PKG is cmark, and before goodgood/cmark.sh): the `cmark` CLI with
# CMake, static, with the mode's flags.
# cmark_build SRC OUT : the CLI into OUT/cmark
cmark_build() {
    cmake -S . -B tt-build -DCMAKE_BUILD_TYPE=None -DCMARK_TESTS=OFF \
        -DCMARK_SHARED=OFF -DCMARK_STATIC=ON -DCMAKE_C_FLAGS="$TT_CFLAGS" \
        -DCMAKE_EXE_LINKER_FLAGS="$TT_LDFLAGS" >/dev/null || return 1
    cmake --build tt-build -j"${JOBS:-2}" --target cmark_exe >/dev/null || return 1
    cp tt-build/src/cmark "$2/cmark"
}

build() { cmark_build "$@"; }
