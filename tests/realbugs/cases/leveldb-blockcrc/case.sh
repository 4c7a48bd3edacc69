# leveldb-blockcrc: a fault patch (fault.patch) that mimics a real bug
# class (an off-by-one in the extent a checksum covers): the table
# builder's block CRC leaves out the block's last byte. The table is
# written by leveldb's background thread during a compaction; the main
# thread reads it back later with verify_checksums and gets "block
# checksum mismatch" (README.md argues the ground truth)
PKG=leveldb
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='(^|::)ReadBlock\('
TRUTH_DIVERGE_PLAIN='crc32c::Extend\('
TRUTH_CAUSE='TableBuilder::WriteRawBlock\('
TAGS='cxx thread regression corruption return-value'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/leveldb.sh (cmake, then ldb.cc)

# a fresh database in ./db each run: 400 keys put, compacted, read back
run_good() { rm -rf db; "$1/ldb"; }
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
