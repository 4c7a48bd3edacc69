# fmtlib-latin1pad: a fault patch (fault.patch) that brings back a real bug
# of fmt 9.0.0 (upstream issue #3038, fixed by PR #3044 in 9.1.0: "Fix
# decoder on broken utf8 sequences": for_each_codepoint "did not check for
# overflow on broken codepoint"): an invalid lead byte (a Latin-1 letter)
# takes the bytes after it with it, so compute_width counts a Latin-1 name
# two columns short and `{:<20}` pads it two bytes too many; the bank
# importer reads the amount two bytes off (README.md argues the ground
# truth)
PKG=fmtlib
KIND=patch
PATCH=fault.patch
REVERSE=1
# the decode lambda of for_each_codepoint<compute_width's count_code_points>
TRUTH_DIVERGE='for_each_codepoint<fmt::v9::detail::compute_width\(fmt::v9::basic_string_view<char>\)::count_code_points>\(.*\)::\{lambda\(char const\*, char const\*\)#1\}'
# values: for_each_codepoint and compute_width inlined into the string
# writer, whose calls of the lambda differ (nm, objdump; README.md)
TRUTH_DIVERGE_VALUES='detail::write<char, fmt::v9::appender>\(fmt::v9::appender, fmt::v9::basic_string_view<char>, fmt::v9::basic_format_specs<char> const&\)( \[clone [^]]*\])?$'
TRUTH_CAUSE='for_each_codepoint<fmt::v9::detail::compute_width\(fmt::v9::basic_string_view<char>\)::count_code_points>\(.*\)::\{lambda\(char const\*, char const\*\)#1\}'
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# src/format.cc (the library's compiled part) with this folder's app.cc
build() {
    rb_cc_prog "$2/app" "-Iinclude" "" "$CASE/app.cc" src/format.cc
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }
