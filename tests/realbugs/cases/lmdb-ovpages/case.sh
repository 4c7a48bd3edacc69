# lmdb-ovpages: a fault patch (fault.patch) that mimics a real bug class (a
# size computed without a header): mdb_node_add gives an overflow value
# size / psize + 1 pages, forgetting the page header, so a value just under
# two pages spills 4 bytes into the next page, which a later write
# overwrites; the application reads its records back much later and finds
# them changed (README.md argues the ground truth)
PKG=lmdb
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^main$'
TRUTH_CAUSE='^mdb_node_add(\.|$)'
TAGS='regression corruption'
SINGLE_THREADED=1

# liblmdb's two sources with this folder's app.c and records.c
build() {
    rb_cc_prog "$2/app" "-Ilibraries/liblmdb -pthread" "-pthread" "$CASE/app.c" \
        "$CASE/records.c" libraries/liblmdb/mdb.c libraries/liblmdb/midl.c
}

# 24 records of 8180 bytes (2 pages of data after a 16-byte header: 3 pages)
run_good() { rm -rf db; "$1/app" 8180; }
run_bad() { run_good "$@"; }
