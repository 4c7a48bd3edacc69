# rapidjson-rawnumber: upstream issue #704 (open since 2016; the fix
# proposed there applied for the good build: fix.patch): RapidJSON
# 1.1.0's PrettyWriter::RawNumber writes a number kept as text
# (kParseNumbersAsStringsFlag) with WriteString, in quotes: every amount
# of the application's ledger comes out as a string, found when the
# written file is read back (README.md argues the ground truth)
PKG=rapidjson
KIND=patch
PATCH=fix.patch
TRUTH_DIVERGE='PrettyWriter<.*>::RawNumber\('
TRUTH_CAUSE='PrettyWriter<.*>::RawNumber\('
# values: RawNumber inlined into the reader's ParseNumber for the
# PrettyWriter handler (nm, objdump; README.md)
TRUTH_DIVERGE_VALUES='ParseNumber<64u, rapidjson::FileReadStream, rapidjson::PrettyWriter<'
TRUTH_CAUSE_VALUES='ParseNumber<64u, rapidjson::FileReadStream, rapidjson::PrettyWriter<'
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# the header-only library (include/) with this folder's app.cc
build() {
    rb_cc_prog "$2/app" "-Iinclude" "" "$CASE/app.cc"
}

run_good() { rm -f ledger.json ledger.out.json; "$1/app"; }
run_bad() { run_good "$@"; }
