# pkgs/leveldb.sh - how the leveldb cases build (sourced before a case.sh
# whose PKG is leveldb): the static library with CMake (as goodgood's
# leveldb.sh: CMAKE_BUILD_TYPE None, so the library's asserts are in; no
# snappy, crc32c or tcmalloc: not installed), then the case's application
# $CASE/ldb.cc linked with it, all with the mode's flags. A case that
# changes the tree first (an input case with a fault in its one build)
# defines its own build and calls leveldb_build.
leveldb_build() {
    cmake -S . -B tt-build -DCMAKE_BUILD_TYPE=None -DLEVELDB_BUILD_TESTS=OFF \
        -DLEVELDB_BUILD_BENCHMARKS=OFF -DLEVELDB_INSTALL=OFF -DBUILD_SHARED_LIBS=OFF \
        -DCMAKE_C_FLAGS="$TT_CFLAGS" -DCMAKE_CXX_FLAGS="$TT_CFLAGS" >/dev/null || return 1
    cmake --build tt-build -j"${JOBS:-2}" --target leveldb >/dev/null || return 1
    ${CXX:-c++} $TT_CFLAGS -Iinclude -o "$2/ldb" "$CASE/ldb.cc" tt-build/libleveldb.a \
        $TT_LDFLAGS -lpthread
}

build() { leveldb_build "$@"; }
