# lmdb-ovspill: one build with lmdb-ovpages's fault (mdb_node_add gives an
# overflow value size / psize + 1 pages, forgetting the page header), two
# record sizes: 8000 bytes (fits) or 8180 (4 bytes spill into the next
# page and are overwritten by a later write; read back much later). Same
# code in both runs (README.md argues the ground truth)
PKG=lmdb
KIND=input
TRUTH_DIVERGE='^main$'
TRUTH_CAUSE='^mdb_node_add(\.|$)'
TAGS='corruption'
SINGLE_THREADED=1

# liblmdb's two sources with the fault (this folder's fault.patch,
# lmdb-ovpages's) and this folder's app.c and records.c
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    rb_cc_prog "$2/app" "-Ilibraries/liblmdb -pthread" "-pthread" "$CASE/app.c" \
        "$CASE/records.c" libraries/liblmdb/mdb.c libraries/liblmdb/midl.c
}

# 24 records of 8000 bytes (2 pages with the header)
run_good() { rm -rf db; "$1/app" 8000; }

# 8180 bytes (3 pages needed, 2 given)
run_bad() { rm -rf db; "$1/app" 8180; }
