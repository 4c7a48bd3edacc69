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

# build: tests/realbugs/pkgs/re2.sh (the library's sources, the generated
# tables), with this folder's datefmt.cc
build() { re2_build "$2/datefmt" "$CASE/datefmt.cc"; }

run_good() {
    printf '%s\n' '2024-05-17 backup started' '2024-05-17 backup finished: 1204 files' \
        '2024-05-18 disk check: ok' '2024-05-19 backup started' >log.txt
    "$1/datefmt" log.txt
}
run_bad() { run_good "$@"; }
