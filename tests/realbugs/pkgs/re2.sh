# pkgs/re2.sh - how the re2 cases build (sourced before a case.sh whose PKG
# is re2): the library's sources that an RE2 needs (no FilteredRE2, Set or
# prefilters) with the case's application, all with the mode's flags, no
# Makefile. Debian's source leaves out the three generated tables: they are
# made as the Makefile's REBUILD_TABLES does (re2/unicode.py reads
# /usr/share/unicode: Debian's patch; needs perl, python3-six, unicode-data).
# re2_build BIN APP: BIN from this tree and the case's APP (a .cc file).
re2_build() {
    [ -f re2/perl_groups.cc ] || perl re2/make_perl_groups.pl >re2/perl_groups.cc || return 1
    for t in casefold groups; do
        [ -f re2/unicode_$t.cc ] || python3 re2/make_unicode_$t.py >re2/unicode_$t.cc || return 1
    done
    rb_cc_prog "$1" "-I." "-pthread" "$2" \
        util/rune.cc util/strutil.cc re2/bitstate.cc re2/compile.cc \
        re2/dfa.cc re2/nfa.cc re2/onepass.cc re2/parse.cc re2/perl_groups.cc \
        re2/prog.cc re2/re2.cc re2/regexp.cc re2/simplify.cc \
        re2/stringpiece.cc re2/tostring.cc re2/unicode_casefold.cc \
        re2/unicode_groups.cc
}

needs() {
    command -v perl >/dev/null 2>&1 || { echo "needs perl"; exit 1; }
    python3 -c 'import six' 2>/dev/null || { echo "needs python3-six"; exit 1; }
    [ -e /usr/share/unicode/UnicodeData.txt ] || { echo "needs unicode-data"; exit 1; }
}
