# tinycdb-slotcount: a fault patch (fault.patch): cdb_findinit turns the
# hash table's slot count into bytes with 4 bytes a slot (a slot is 8: a
# hash and a record position), so cdb_findnext's end of the table and its
# number of probes are half the table's; a key whose probe would run past
# the middle wraps to the table's first slot and is not found
# (README.md argues the ground truth)
PKG=tinycdb
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^cdb_findnext$'
TRUTH_CAUSE='^cdb_findinit$'
TAGS='regression'
SINGLE_THREADED=1

# the library's sources (Makefile's LIB_SRCS) with this folder's app.c
build() {
    rb_cc_prog "$2/cdbcheck" "-I." "" cdb_init.c cdb_find.c cdb_findnext.c \
        cdb_seq.c cdb_seek.c cdb_unpack.c cdb_make_add.c cdb_make_put.c \
        cdb_make.c cdb_hash.c "$CASE/app.c"
}

run_good() { "$1/cdbcheck"; }
run_bad() { run_good "$@"; }
