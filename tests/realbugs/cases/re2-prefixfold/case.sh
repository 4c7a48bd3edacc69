# re2-prefixfold: a fault patch (fault.patch): Regexp::RequiredPrefix
# takes the literal prefix's case folding from the concatenation's flags
# (this) instead of the literal's (re). For "^(?i:error): (.*)" the
# concatenation is outside the (?i:...) group: the prefix "error" is
# stored as case-sensitive when the RE2 is built, and every later match
# compares it with memcmp: "ERROR: " and "Error: " lines no longer match.
# The application (errlog.cc) finds 1 error where the log says 3, exit 1
# (README.md argues the ground truth)
PKG=re2
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='re2::RE2::Match\('
TRUTH_CAUSE='re2::Regexp::RequiredPrefix\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# as re2-maxsubmatch: the library's sources that RE2 needs, the three
# generated tables, this folder's errlog.cc
build() {
    [ -f re2/perl_groups.cc ] || perl re2/make_perl_groups.pl >re2/perl_groups.cc || return 1
    for t in casefold groups; do
        [ -f re2/unicode_$t.cc ] || python3 re2/make_unicode_$t.py >re2/unicode_$t.cc || return 1
    done
    rb_cc_prog "$2/errlog" "-I." "-pthread" "$CASE/errlog.cc" \
        util/rune.cc util/strutil.cc re2/bitstate.cc re2/compile.cc \
        re2/dfa.cc re2/nfa.cc re2/onepass.cc re2/parse.cc re2/perl_groups.cc \
        re2/prog.cc re2/re2.cc re2/regexp.cc re2/simplify.cc \
        re2/stringpiece.cc re2/tostring.cc re2/unicode_casefold.cc \
        re2/unicode_groups.cc
}

run_good() {
    printf '%s\n' 'error: disk /dev/sdb1 is 95% full' 'info: backup started' \
        'ERROR: fan 2 stopped' 'info: backup finished' \
        'Error: certificate expires in 3 days' '# 3 errors' >app.log
    "$1/errlog" app.log
}
run_bad() { run_good "$@"; }

needs() {
    command -v perl >/dev/null 2>&1 || { echo "needs perl"; exit 1; }
    python3 -c 'import six' 2>/dev/null || { echo "needs python3-six"; exit 1; }
    [ -e /usr/share/unicode/UnicodeData.txt ] || { echo "needs unicode-data"; exit 1; }
}
