# cli11-negnumber: a fault patch (fault.patch): CLI::App::_recognize loses
# its check for a negative number ("-4" is a value unless an option -4
# exists) and classifies every "-X" as a short option. The application
# (wrap.cpp) takes a hanging indent as its second positional, `-4`: the
# parse ends in "The following argument was not expected: -4", exit 109
# (README.md argues the ground truth)
PKG=cli11
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='CLI::App::_recognize\('
TRUTH_CAUSE='CLI::App::_recognize\('
TAGS='cxx regression return-value'
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
