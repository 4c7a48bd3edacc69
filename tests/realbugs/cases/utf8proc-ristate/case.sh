# utf8proc-ristate: a fault patch (fault.patch) that brings back a real
# bug of utf8proc 2.6.0 (upstream issues #203/#204, fixed by PR #205 in
# 2.6.1): grapheme_break_extended no longer records the first code
# point's class in the caller's state on the first call, so a string that
# starts with two flags (four regional indicators) is split [RI RI RI]
# [RI]; the application finds half a flag in a cluster (README.md argues
# the ground truth)
PKG=utf8proc
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^split_label(\.|$)'
# values: split_label inlined into main; grapheme_break_extended inlined
# into utf8proc_grapheme_break_stateful (nm, objdump; README.md)
TRUTH_DIVERGE_VALUES='^main$'
TRUTH_CAUSE='^grapheme_break_extended(\.|$)'
TRUTH_CAUSE_VALUES='^utf8proc_grapheme_break_stateful$'
TAGS='regression corruption'
SINGLE_THREADED=1

# utf8proc.c (it includes utf8proc_data.c) with this folder's app.c
build() {
    rb_cc_prog "$2/app" "-I." "" "$CASE/app.c" utf8proc.c
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }
