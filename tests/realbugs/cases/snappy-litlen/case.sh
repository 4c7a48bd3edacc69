# snappy-litlen: a fault patch (fault.patch) that mimics a real bug class
# (bits taken for bytes): EmitLiteral writes a long literal's length in
# one byte instead of two; Uncompress reads the compressed stream back
# later and goes wrong (README.md argues the ground truth)
PKG=snappy
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='DecompressAllTags<|DecompressBranchless<'
TRUTH_CAUSE='EmitLiteral<'
# -pg build: EmitLiteral is inlined into CompressFragment (nm, README.md)
TRUTH_CAUSE_VALUES='EmitLiteral<|internal::CompressFragment\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# the library's sources (no CMake: snappy-stubs-public.h from its .in by
# sed, the HAVE_ macros CMake sets on Linux) and roundtrip.cc
build() {
    sed -e 's/\${HAVE_SYS_UIO_H_01}/1/' -e 's/\${PROJECT_VERSION_MAJOR}/1/' \
        -e 's/\${PROJECT_VERSION_MINOR}/1/' -e 's/\${PROJECT_VERSION_PATCH}/9/' \
        snappy-stubs-public.h.in >snappy-stubs-public.h
    rb_cc_prog "$2/roundtrip" "-I. -DHAVE_BUILTIN_CTZ=1 -DHAVE_BUILTIN_EXPECT=1 -DHAVE_ATTRIBUTE_ALWAYS_INLINE=1 -DHAVE_SYS_UIO_H=1 -DHAVE_UNISTD_H=1" "" \
        snappy.cc snappy-sinksource.cc snappy-stubs-internal.cc "$CASE/roundtrip.cc"
}

# 2000 bytes without a repeated 4-byte string (two small linear
# congruential generators added), then 2000 bytes of a 16-byte pattern
run_good() {
    LC_ALL=C awk 'BEGIN { x = 1; y = 1
        for (i = 0; i < 2000; i++) {
            x = (x * 75 + 74) % 65537; y = (y * 171) % 30269
            printf "%c", (x + y) % 255 + 1 }
        for (i = 0; i < 125; i++) printf "0123456789abcdef" }' >data.bin
    "$1/roundtrip" data.bin
}
run_bad() { run_good "$@"; }
