# cli11-takelast: a fault patch (fault.patch): MultiOptionPolicy::TakeLast
# in CLI::Option::_reduce_results keeps the first results instead of the
# last (TakeFirst's line copied). The application (wrap.cpp) reflows a
# text file; `-w 40 -w 72` (a default put first by an alias, then the
# user's) gives width 40 instead of 72: the value is wrong from the parse
# on and used later, where the paragraphs are broken into lines
# (README.md argues the ground truth)
PKG=cli11
KIND=patch
PATCH=fault.patch
REVERSE=1
# values: where the wrong width is used (wrap_paragraph breaks a line
# sooner; emit_line gets another line's text)
TRUTH_DIVERGE='wrap_paragraph\(|emit_line\('
# plain: the iterator helpers inlined in _reduce_results are instrumented
# too (begin() for end()): the calls part in the changed function itself
TRUTH_DIVERGE_PLAIN='CLI::Option::_reduce_results\('
TRUTH_CAUSE='CLI::Option::_reduce_results\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# header-only: this folder's wrap.cpp against the tree's include/
build() {
    rb_cc_prog "$2/wrap" "-Iinclude" "" "$CASE/wrap.cpp"
}

notes() {
    cat >notes.txt <<'TXT'
The build farm runs every job twice: once on the fast machines and once
on the reference machine, whose results are the ones that are kept.
A job that differs between the two is flagged for a person to look at.

Jobs are queued by priority, then by the time they were submitted.
A job that waits for more than an hour is raised one priority level, so
no job waits for ever behind a stream of urgent ones.
TXT
}

run_good() { notes; "$1/wrap" -w 40 -w 72 notes.txt -4; }
run_bad() { run_good "$@"; }
