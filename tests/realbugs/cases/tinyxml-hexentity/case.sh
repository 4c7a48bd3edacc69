# tinyxml-hexentity: Debian's entity-encoding.patch reversed (TinyXML
# 2.6.2 as released; upstream bug 3031828): TiXmlBase::EncodeString
# passes "&#x..." in a text through unescaped, as if it were already a
# character reference, so a note whose text contains "&#x263A;" is saved
# raw and reads back as U+263A (README.md argues the ground truth)
PKG=tinyxml
KIND=patch
PATCH=debian/patches/entity-encoding.patch
TRUTH_DIVERGE='^TiXmlBase::EncodeString\('
# values: EncodeString makes no traced call; the loader's GetEntity
# calls ConvertUTF32ToUTF8 in the bad run only (objdump; README.md)
TRUTH_DIVERGE_VALUES='^TiXmlBase::GetEntity\('
TRUTH_CAUSE='^TiXmlBase::EncodeString\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# the library's four sources (TIXML_USE_STL, as Debian builds it) with
# this folder's app.cc
build() {
    rb_cc_prog "$2/app" "-DTIXML_USE_STL -I." "" "$CASE/app.cc" tinyxml.cpp \
        tinystr.cpp tinyxmlerror.cpp tinyxmlparser.cpp
}

run_good() { rm -f notes.xml; "$1/app"; }
run_bad() { run_good "$@"; }
