# libyaml-tab: a YAML file with a tab before a key; the scanner fails
# with "found a tab character that violates indentation" (README.md argues
# the ground truth).
PKG=libyaml
KIND=input
# (the README's erratum: the tab is read by line 299's plain scalar)
# (a gcc clone of it, yaml_parser_scan_plain_scalar.constprop.0, is it too)
TRUTH_DIVERGE='^yaml_parser_scan_plain_scalar(\.constprop\.[0-9]+)?$'
TRUTH_CAUSE='^yaml_parser_scan_plain_scalar(\.constprop\.[0-9]+)?$'
# -pg build: with -pg -mfentry alone gcc inlined the static chain
# fetch_next_token -> fetch_plain_scalar -> scan_plain_scalar into their
# only caller and values mode's truth was yaml_parser_fetch_more_tokens;
# ttcap-values.pc's -fno-inline-functions-called-once (session 6) keeps
# them, and values mode names the same function as plain mode
TAGS='input-char'
SINGLE_THREADED=1

# libyaml without configure: config.h is the version only; the library's
# sources and the test suite's event printer into one program
build() {
    printf '%s\n' '#define YAML_VERSION_MAJOR 0' '#define YAML_VERSION_MINOR 2' \
        '#define YAML_VERSION_PATCH 5' '#define YAML_VERSION_STRING "0.2.5"' \
        >src/config.h
    rb_cc_prog "$2/run-parser-test-suite" "-DHAVE_CONFIG_H -Iinclude -Isrc" "" \
        src/api.c src/reader.c src/scanner.c src/parser.c src/loader.c \
        src/writer.c src/emitter.c src/dumper.c tests/run-parser-test-suite.c
}

# doc TABLINE : a 400-line configuration, line TABLINE (0: none) starting
# with a tab
doc() {
    awk -v tab="$1" 'BEGIN {
        for (i = 1; i <= 400; i++)
            printf "%skey%d: value %d\n", (i == tab) ? "\t" : "", i, i * 7 }'
}

run_good() {
    doc 0 >in.yaml
    "$1/run-parser-test-suite" in.yaml
}
run_bad() {
    doc 300 >in.yaml
    "$1/run-parser-test-suite" in.yaml
}
