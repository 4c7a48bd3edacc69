# pkgs/ck.sh - how the ck (Concurrency Kit) cases build (sourced before a
# case.sh whose PKG is ck): ck's own configure writes include/ck_md.h (the
# machine's cache line, page size, TSO: no build flags of its own are
# used), then the two sources the cases use, src/ck_ec.c (event counts)
# and src/ck_epoch.c (epoch reclamation), with the case's application,
# all with the mode's flags (rb_cc_prog), no libck.a.
# ck_build BIN APP: BIN from this tree and the case's APP (a .c file).
ck_build() {
    ./configure >configure.log 2>&1 || { cat configure.log >&2; return 1; }
    rb_cc_prog "$1" "-Iinclude" "-pthread" "$2" src/ck_ec.c src/ck_epoch.c
}
