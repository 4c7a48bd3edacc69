# leveldb-bitrot: an input case: one byte of a table file flipped on disk
# (bit rot) after the database was made; the application's scanner thread
# reads it back with verify_checksums, `ReadBlock` finds the block's CRC
# wrong, and the main thread reports the failed scan after the join
# (README.md argues the ground truth)
PKG=leveldb
KIND=input
TRUTH_DIVERGE='(^|::)ReadBlock\('
TRUTH_CAUSE='(^|::)ReadBlock\('
TAGS='cxx thread return-value'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/leveldb.sh (cmake, then ldb.cc)

# the database is made by an untraced run of the same program (no
# TTCAP_OUT), then scanned by the traced one
run_good() { rm -rf db; env -u TTCAP_OUT "$1/ldb" make && "$1/ldb" scan; }

# the same, with the byte at offset 40 of the table (in the first data
# block: key000000's value) inverted before the scan
run_bad() {
    rm -rf db; env -u TTCAP_OUT "$1/ldb" make || return 1
    f=$(ls db/*.ldb) && [ "$(echo "$f" | wc -l)" = 1 ] || { echo "run_bad: want one table in db/" >&2; return 1; }
    b=$(od -An -tu1 -j40 -N1 "$f" | tr -d ' ')
    printf "$(printf '\\%03o' $((255 - b)))" | dd of="$f" bs=1 seek=40 conv=notrunc status=none
    "$1/ldb" scan
}

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
