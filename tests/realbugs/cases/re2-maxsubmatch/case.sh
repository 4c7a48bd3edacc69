# re2-maxsubmatch: a fault patch (fault.patch): RE2::MaxSubmatch, which
# finds the highest \N of a rewrite string, keeps the last \N it reads
# instead of the highest. The application (datefmt.cc) rewrites ISO dates
# with RE2::Replace(&line, "^(\d{4})-(\d{2})-(\d{2})", "\3/\2/\1"): the
# wrong count (1 for 3) asks the match for 2 submatches instead of 4, and
# RE2::Rewrite then refuses \3 ("invalid substitution \3 from 2 groups"):
# every line is reported undated, exit 1 (README.md argues the truth)
PKG=re2
KIND=patch
PATCH=fault.patch
REVERSE=1
# plain: the one-pass matcher makes one StringPiece per submatch asked
# for (onepass.cc:341-344): the calls part there, in the first Match
TRUTH_DIVERGE='re2::Prog::SearchOnePass\('
# values: MaxSubmatch is inlined into Replace (objdump): the first value
# that differs is Match's nsubmatch (4 / 2), passed by Replace
TRUTH_DIVERGE_VALUES='re2::RE2::(Match|Replace)\('
TRUTH_CAUSE='re2::RE2::MaxSubmatch\('
TRUTH_CAUSE_VALUES='re2::RE2::(MaxSubmatch|Replace)\('
TAGS='cxx regression return-value arg-chain'
SINGLE_THREADED=1

# the library's sources that RE2 needs (no FilteredRE2, Set, prefilters),
# the three generated tables made as the Makefile's REBUILD_TABLES does
# (Debian's source leaves them out; unicode.py reads /usr/share/unicode),
# and this folder's datefmt.cc
build() {
    [ -f re2/perl_groups.cc ] || perl re2/make_perl_groups.pl >re2/perl_groups.cc || return 1
    for t in casefold groups; do
        [ -f re2/unicode_$t.cc ] || python3 re2/make_unicode_$t.py >re2/unicode_$t.cc || return 1
    done
    rb_cc_prog "$2/datefmt" "-I." "-pthread" "$CASE/datefmt.cc" \
        util/rune.cc util/strutil.cc re2/bitstate.cc re2/compile.cc \
        re2/dfa.cc re2/nfa.cc re2/onepass.cc re2/parse.cc re2/perl_groups.cc \
        re2/prog.cc re2/re2.cc re2/regexp.cc re2/simplify.cc \
        re2/stringpiece.cc re2/tostring.cc re2/unicode_casefold.cc \
        re2/unicode_groups.cc
}

run_good() {
    printf '%s\n' '2024-05-17 backup started' '2024-05-17 backup finished: 1204 files' \
        '2024-05-18 disk check: ok' '2024-05-19 backup started' >log.txt
    "$1/datefmt" log.txt
}
run_bad() { run_good "$@"; }

needs() {
    command -v perl >/dev/null 2>&1 || { echo "needs perl"; exit 1; }
    python3 -c 'import six' 2>/dev/null || { echo "needs python3-six"; exit 1; }
    [ -e /usr/share/unicode/UnicodeData.txt ] || { echo "needs unicode-data"; exit 1; }
}
