# goodgood/cmark.sh - C: cmark (CommonMark to HTML), its CLI built with
# CMake, converting the package's own README.md and changelog.
PKG=cmark
LANG_=C
build() {
    cmake -S . -B tt-build -DCMAKE_BUILD_TYPE=None -DCMARK_TESTS=OFF \
        -DCMARK_SHARED=OFF -DCMARK_STATIC=ON -DCMAKE_C_FLAGS="$TT_CFLAGS" \
        -DCMAKE_EXE_LINKER_FLAGS="$TT_LDFLAGS" >/dev/null || return 1
    cmake --build tt-build -j"${JOBS:-2}" --target cmark_exe >/dev/null || return 1
    cp tt-build/src/cmark "$2/cmark" && cp README.md changelog.txt "$2/"
}
run() { cat "$1/README.md" "$1/changelog.txt" | "$1/cmark" --to html; }
