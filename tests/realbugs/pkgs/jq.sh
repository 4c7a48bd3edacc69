# pkgs/jq.sh - how the jq cases build jq 1.6 (sourced before a case.sh
# whose PKG is jq; a case may still define its own build).

# jq without configure: the generated files by hand, every source of
# libjq and main.c into one program (no oniguruma: no regex builtins);
# built without debian/patches/CVE-2026-40164.patch, which seeds the
# object hash from /dev/urandom (two good runs would hash keys apart)
build() {
    patch -p1 -R -s -f <debian/patches/CVE-2026-40164.patch || return 1
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' \
        src/builtin.jq >src/builtin.inc
    echo '#define JQ_VERSION "1.6"' >src/version.h
    rb_cc_prog "$2/jq" "-I. -Isrc -DIEEE_8087 -DHAVE_ALLOCA_H -DHAVE_MKSTEMP" \
        "-lm -lpthread" src/main.c src/builtin.c src/bytecode.c \
        src/compile.c src/execute.c src/jq_test.c src/jv.c src/jv_alloc.c \
        src/jv_aux.c src/jv_dtoa.c src/jv_file.c src/jv_parse.c \
        src/jv_print.c src/jv_unicode.c src/linker.c src/locfile.c \
        src/util.c src/parser.c src/lexer.c
}
