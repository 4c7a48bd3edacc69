# tinyxml-stampeof: Debian's fix for CVE-2021-42260 reversed (TinyXML
# 2.6.2 as released): TiXmlParsingData::Stamp, counting the row and
# column of a parse error, advances past a 0xEF lead byte only when two
# more bytes follow; a message cut off after EF BC makes it loop forever
# (README.md argues the ground truth)
PKG=tinyxml
KIND=patch
PATCH=debian/patches/CVE-2021-42260.patch
TRUTH_DIVERGE='^TiXmlParsingData::Stamp\('
TRUTH_CAUSE='^TiXmlParsingData::Stamp\('
TAGS='cxx regression hang'
SINGLE_THREADED=1

# the library's four sources (TIXML_USE_STL, as Debian builds it) with
# this folder's app.cc
build() {
    rb_cc_prog "$2/app" "-DTIXML_USE_STL -I." "" "$CASE/app.cc" tinyxml.cpp \
        tinystr.cpp tinyxmlerror.cpp tinyxmlparser.cpp
}

run_good() { rm -rf spool && mkdir spool && "$1/app"; }

# the bad build never returns from message 7 (README.md): ended after
# 5 s (SIGTERM, SIGKILL 2 s later), status 124
run_bad() { rm -rf spool && mkdir spool && timeout -k 2 5 "$1/app"; }
