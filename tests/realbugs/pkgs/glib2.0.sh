# pkgs/glib2.0.sh - how the glib2.0 cases build (sourced before a case.sh
# whose PKG is glib2.0): the static libglib-2.0.a alone with meson
# (--buildtype=plain: only the mode's flags; no tests, docs, NLS,
# libmount, selinux, xattr, dtrace, systemtap, sysprof, libelf), then the
# case's application $CASE/app.c linked with it. LDFLAGS carry the mode's
# link flags so meson's test programs link with the instrumentation. A
# case that changes the tree first defines its own build and calls
# glib_build.
glib_build() {
    CFLAGS="$TT_CFLAGS" LDFLAGS="$TT_LDFLAGS" meson setup tt-build --buildtype=plain \
        -Ddefault_library=static -Dtests=false -Dinstalled_tests=false -Dnls=disabled \
        -Dlibmount=disabled -Dselinux=disabled -Dxattr=false -Dman=false -Dgtk_doc=false \
        -Ddtrace=false -Dsystemtap=false -Dsysprof=disabled -Dglib_debug=disabled \
        -Dlibelf=disabled >/dev/null || return 1
    ninja -C tt-build -j"${JOBS:-2}" glib/libglib-2.0.a >/dev/null || return 1
    rb_cc_prog "$2/app" "-Iglib -Itt-build/glib -I. -Itt-build" \
        "tt-build/glib/libglib-2.0.a -lpcre2-8 -pthread -lm" "$CASE/app.c"
}

build() { glib_build "$@"; }

needs() {
    command -v meson >/dev/null 2>&1 || { echo "needs meson"; exit 1; }
    command -v ninja >/dev/null 2>&1 || { echo "needs ninja"; exit 1; }
    [ -e /usr/include/pcre2.h ] || { echo "needs libpcre2-dev"; exit 1; }
}
