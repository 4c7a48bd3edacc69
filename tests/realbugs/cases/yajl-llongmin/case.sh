# yajl-llongmin: one build, two inputs: a table schema whose column 25
# has the lower bound INT64_MIN (bad) or INT64_MIN + 1 (good); yajl
# 2.1.0's yajl_parse_integer reports ERANGE for -9223372036854775808
# (upstream issue #130, open; PR #251), so the tree node is not marked an
# integer and the application's check, much later, rejects the schema
# (README.md argues the ground truth)
PKG=yajl
KIND=input
TRUTH_DIVERGE='^read_column(\.|$)'
# values: read_column and read_limit inlined into main (nm; README.md)
TRUTH_DIVERGE_VALUES='^main$'
TRUTH_CAUSE='^yajl_parse_integer(\.|$)'
TAGS='return-value corruption'
SINGLE_THREADED=1

# yajl's sources with this folder's app.c; the public headers as the
# CMake build installs them (yajl/*.h, yajl_version.h from its template)
build() {
    mkdir -p tt-inc/yajl && cp src/api/*.h tt-inc/yajl/ || return 1
    sed -e 's/\${YAJL_MAJOR}/2/' -e 's/\${YAJL_MINOR}/1/' -e 's/\${YAJL_MICRO}/0/' \
        src/api/yajl_version.h.cmake >tt-inc/yajl/yajl_version.h || return 1
    rb_cc_prog "$2/app" "-Itt-inc" "" "$CASE/app.c" src/yajl.c src/yajl_alloc.c \
        src/yajl_buf.c src/yajl_encode.c src/yajl_gen.c src/yajl_lex.c \
        src/yajl_parser.c src/yajl_tree.c src/yajl_version.c
}

run_good() { sh "$CASE/mkschema.sh" -9223372036854775807 && "$1/app" schema.json; }
run_bad() { sh "$CASE/mkschema.sh" -9223372036854775808 && "$1/app" schema.json; }
