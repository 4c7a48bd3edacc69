# libcsv-tabempty: libcsv 3.0.2's fix for empty fields of tab-delimited
# files (SourceForge issue 3513234) reversed: csv_parse, at the start of a
# field, skips a tab as leading blank space even when the tab is the
# delimiter, so an empty field vanishes and the row's later fields move
# left; the stock import finds a row of three fields (README.md argues the
# ground truth)
PKG=libcsv
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='^csv_parse$'
TRUTH_CAUSE='^csv_parse$'
TAGS='regression input'
SINGLE_THREADED=1

# libcsv.c with this folder's app.c
build() {
    rb_cc_prog "$2/app" "-I." "" "$CASE/app.c" libcsv.c
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }
