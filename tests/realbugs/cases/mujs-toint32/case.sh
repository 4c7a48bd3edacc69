# mujs-toint32: a fault patch (fault.patch): jsV_numbertoint32 (the
# interpreter's ECMAScript ToInt32) rounds a negative number down (floor)
# instead of toward zero (ceil), so `-0.25 | 0` is -1 (README.md argues
# the ground truth)
PKG=mujs
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^jsR_run$'
TRUTH_CAUSE='^jsV_numbertoint32$'
TAGS='regression return-value'
SINGLE_THREADED=1

# the shell (main.c) and the library's sources (the Makefile's SRCS,
# js*.c utf*.c regexp.c), one object a file, with the mode's flags
build() {
    rb_cc_prog "$2/mujs" "-std=c99" "-lm" main.c js*.c utf*.c regexp.c
}

run_good() { "$1/mujs" "$CASE/readings.js"; }
run_bad() { run_good "$@"; }
