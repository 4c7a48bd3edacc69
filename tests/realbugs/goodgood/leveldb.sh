# goodgood/leveldb.sh - C++, threads and a seeded PRNG: LevelDB's
# db_bench (CMake build), filling and reading a small database
# (leveldb::Random with its fixed seed; a background compaction thread).
PKG=leveldb
LANG_=C++
build() {
    cmake -S . -B tt-build -DCMAKE_BUILD_TYPE=None -DLEVELDB_BUILD_TESTS=OFF \
        -DLEVELDB_BUILD_BENCHMARKS=ON -DBUILD_SHARED_LIBS=OFF \
        -DCMAKE_C_FLAGS="$TT_CFLAGS" -DCMAKE_CXX_FLAGS="$TT_CFLAGS" \
        -DCMAKE_EXE_LINKER_FLAGS="$TT_LDFLAGS" >/dev/null || return 1
    cmake --build tt-build -j"${JOBS:-2}" --target db_bench >/dev/null || return 1
    cp tt-build/db_bench "$2/db_bench"
}
run() {
    rm -rf db
    "$1/db_bench" --db="$PWD/db" --benchmarks=fillseq,readrandom,fillrandom \
        --num=3000 --reads=1000 --compression_ratio=0.5 | grep -c 'micros/op'
}
