# pugixml-endtag: the package's load_file sample on its own tree.xml, and
# on the same file with `</node>` misspelt `</mode>`: parse_tree stops with
# "Start-end tags mismatch" (README.md argues the ground truth)
PKG=pugixml
KIND=input
TRUTH_DIVERGE='xml_parser::parse_tree(\(.*\))?$'
TRUTH_CAUSE='xml_parser::parse_tree(\(.*\))?$'
# values build (correction after the first run, README.md): parse_tree is
# inlined into load_buffer_impl and no call differs; the first recorded
# difference is description()'s return value
TRUTH_DIVERGE_VALUES='load_buffer_impl|xml_parser::parse_tree|xml_parse_result::description'
TRUTH_CAUSE_VALUES='load_buffer_impl|xml_parser::parse_tree'
TAGS='cxx'
SINGLE_THREADED=1

# src/pugixml.cpp and docs/samples/load_file.cpp (it loads "tree.xml" from
# the current folder and prints the result and the root's name attribute);
# the sample document goes beside the program
build() {
    cd "$1" || return 1
    for f in src/pugixml.cpp docs/samples/load_file.cpp; do echo "$f"; done |
        xargs -P "${JOBS:-2}" -I{} sh -c \
            'echo "c++ {}"; ${CXX:-g++} $TT_CFLAGS -Isrc -c -o "$(basename {} .cpp).o" {}' ||
        return 1
    ${CXX:-g++} -o "$2/load_file" pugixml.o load_file.o $TT_LDFLAGS || return 1
    cp docs/samples/tree.xml "$2/tree.xml"
}

run_good() {
    cp "$1/tree.xml" tree.xml
    "$1/load_file"
}

run_bad() {
    sed 's|</node>|</mode>|' "$1/tree.xml" >tree.xml
    "$1/load_file"
}
