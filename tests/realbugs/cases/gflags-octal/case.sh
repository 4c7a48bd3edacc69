# gflags-octal: a fault patch (fault.patch) of a real bug class (a number
# with a leading zero read as octal, the behaviour gflags dropped because
# "it caused too many bugs"): FlagValue::ParseFrom takes --shard_count=016
# from a zero-padded job file as 14 when the flags are parsed at start-up;
# much later the exporter's shard plan is uneven (README.md argues the
# ground truth)
PKG=gflags
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='\(anonymous namespace\)::check_plan\('
TRUTH_CAUSE='FlagValue::ParseFrom\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# the static libgflags_nothreads.a with cmake (CMAKE_BUILD_TYPE None: only
# the mode's flags; no shared library, no threads' mutexes, no tests),
# then shards.cc linked with it
build() {
    CXXFLAGS="$TT_CFLAGS" CFLAGS="$TT_CFLAGS" LDFLAGS="$TT_LDFLAGS" \
        cmake -S . -B tt-build -G Ninja -DCMAKE_BUILD_TYPE=None \
        -DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON -DBUILD_gflags_LIB=OFF \
        -DBUILD_gflags_nothreads_LIB=ON -DBUILD_TESTING=OFF \
        -DREGISTER_INSTALL_PREFIX=OFF -DREGISTER_BUILD_DIR=OFF >/dev/null || return 1
    ninja -C tt-build -j"${JOBS:-2}" gflags_nothreads_static >/dev/null || return 1
    rb_cc_prog "$2/shards" "-Itt-build/include" "tt-build/lib/libgflags_nothreads.a" \
        "$CASE/shards.cc"
}

run_good() { "$1/shards" --shard_count=016 --keys=4096 --replicas=002; }
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
    command -v ninja >/dev/null 2>&1 || { echo "needs ninja"; exit 1; }
}
