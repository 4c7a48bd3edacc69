# tinyxml-declnul: Debian's fix for CVE-2023-34194 reversed (TinyXML
# 2.6.2 as released): TiXmlDeclaration::Parse, after skipping the blanks
# between the declaration's attributes, compares the text at the end of
# the input with "version"; StringEqual asserts on the terminating NUL. A
# settings file cut short after its declaration's first attribute aborts
# the application instead of being reset (README.md argues the ground
# truth)
PKG=tinyxml
KIND=patch
PATCH=debian/patches/CVE-2023-34194.patch
TRUTH_DIVERGE='^TiXmlDeclaration::Parse\('
TRUTH_CAUSE='^TiXmlDeclaration::Parse\('
TAGS='cxx regression crash'
SINGLE_THREADED=1

# the library's four sources (TIXML_USE_STL, as Debian builds it) with
# this folder's app.cc
build() {
    rb_cc_prog "$2/app" "-DTIXML_USE_STL -I." "" "$CASE/app.cc" tinyxml.cpp \
        tinystr.cpp tinyxmlerror.cpp tinyxmlparser.cpp
}

run_good() { rm -rf profiles && mkdir profiles && "$1/app"; }
run_bad() { run_good "$@"; }
