# expat-stopinit: CVE-2024-50602 (Debian's fix, the library part:
# fix.patch, reversed for the bad build): XML_StopParser suspends a parser
# that has not started; XML_ResumeParser, called later on the state it
# left, runs the processor and updates a position from a NULL pointer:
# SIGSEGV (README.md argues the ground truth)
PKG=expat
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='^XML_ResumeParser$'
TRUTH_CAUSE='^XML_StopParser$'
TAGS='regression crash'
SINGLE_THREADED=1

# the static library with CMake (XML_DTD given as 1, as Debian's
# autotools build defines it: its CVE-2024-8176 backport tests
# `#if XML_DTD == 1`, which CMake's empty define breaks), then feeds.c
build() {
    cmake -S expat -B tt-build -DCMAKE_BUILD_TYPE=None -DEXPAT_BUILD_TESTS=OFF \
        -DEXPAT_BUILD_TOOLS=OFF -DEXPAT_BUILD_EXAMPLES=OFF -DEXPAT_BUILD_DOCS=OFF \
        -DEXPAT_SHARED_LIBS=OFF -DEXPAT_DTD=OFF \
        -DCMAKE_C_FLAGS="$TT_CFLAGS -DXML_DTD=1" >/dev/null || return 1
    cmake --build tt-build -j"${JOBS:-2}" --target expat >/dev/null || return 1
    ${CC:-cc} $TT_CFLAGS -Iexpat/lib -o "$2/feeds" "$CASE/feeds.c" tt-build/libexpat.a $TT_LDFLAGS
}

run_good() { "$1/feeds"; }
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
