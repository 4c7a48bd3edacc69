# pkgs/liburcu.sh - how the liburcu cases build (sourced before a case.sh
# whose PKG is liburcu): configure (static only), then the two libraries
# the memory-barrier flavour needs, liburcu-mb (src/urcu.c with RCU_MB,
# call_rcu included) and liburcu-common, with the mode's flags; the case's
# $CASE/app.c linked with them.
build() {
    ./configure --disable-shared --enable-static CFLAGS="$TT_CFLAGS" \
        LDFLAGS="$TT_LDFLAGS" >/dev/null || return 1
    make -C src -j"${JOBS:-2}" liburcu-mb.la liburcu-common.la >/dev/null || return 1
    rb_cc_prog "$2/app" "-Iinclude" \
        "src/.libs/liburcu-mb.a src/.libs/liburcu-common.a -pthread" "$CASE/app.c"
}
