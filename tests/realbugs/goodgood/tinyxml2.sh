# goodgood/tinyxml2.sh - C++: TinyXML-2's own test program xmltest (about
# 400 checks: parsing, printing, the DOM), run on its resources/ folder.
PKG=tinyxml2
LANG_=C++
build() {
    rb_cc_prog "$2/xmltest" "-I." "" tinyxml2.cpp xmltest.cpp || return 1
    cp -a resources "$2/resources"
}
run() {
    rm -rf resources && cp -a "$1/resources" . && "$1/xmltest" | tail -1
}
