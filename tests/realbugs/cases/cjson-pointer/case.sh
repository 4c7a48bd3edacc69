# cjson-pointer: CVE-2025-57052, cJSON_Utils takes "2x" in a JSON pointer
# for an array index (README.md argues the ground truth)
PKG=cjson
KIND=patch
PATCH=debian/patches/CVE-2025-57052.patch
TRUTH_DIVERGE='^get_item_from_pointer$'
TRUTH_CAUSE='^decode_array_index_from_pointer(\.|$)'
# -pg build: get_array_item is inlined into get_item_from_pointer (nm), so
# no call differs there; the first differing calls are main's
TRUTH_DIVERGE_VALUES='^main$'
TAGS='regression return-value'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/getptr" "-I." "-lm" cJSON.c cJSON_Utils.c "$CASE/getptr.c"
}

# a document with an array of 100 numbers, items[i] = 10 * i
doc() {
    awk 'BEGIN { printf "{\"name\":\"t\",\"items\":["
                 for (i = 0; i < 100; i++) printf "%s%d", i ? "," : "", 10 * i
                 print "]}" }'
}

run_good() {
    doc >doc.json
    "$1/getptr" doc.json /items/2x
}
run_bad() { run_good "$@"; }
