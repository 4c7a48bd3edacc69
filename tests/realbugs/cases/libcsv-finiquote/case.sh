# libcsv-finiquote: a fault patch direction reversed: libcsv 0.9.5's fix
# (ChangeLog, 2007-03-01) taken out of csv_fini, so a quoted last field of a
# file with no newline at its end keeps its closing quote. The access
# list's last user gets the mode `ro"`, stored at start and read back 350
# requests later, when the server finds an unknown mode (README.md argues
# the ground truth)
PKG=libcsv
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='^authorize(\.|$)'
# values: authorize and its callees inlined into main (nm; README.md)
TRUTH_DIVERGE_VALUES='^main$'
TRUTH_CAUSE='^csv_fini$'
TAGS='regression corruption'
SINGLE_THREADED=1

# libcsv.c with this folder's app.c
build() {
    rb_cc_prog "$2/app" "-I." "" "$CASE/app.c" libcsv.c
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }
