# lua5.4-envconst: CVE-2022-28805, wrong code for a global name when _ENV
# is a <const> local (Debian's patch 0004 is the upstream fix; the build
# without it is the bad one). README.md argues the ground truth.
PKG=lua5.4
KIND=patch
PATCH=debian/patches/0004-cve-2022-28805.patch
TRUTH_DIVERGE='^singlevar$'
TRUTH_CAUSE='^singlevar$'
TAGS='regression'
SINGLE_THREADED=1

build() {
    cd "$1/src" || return 1
    printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch)" \
        >lua5.4-deb-multiarch.h
    rb_cc_prog "$2/lua" "-DLUA_COMPAT_5_3 -DLUA_USE_LINUX -Dluai_makeseed(L)=0x2545F491u" \
        "-lm -ldl" $(ls *.c | grep -v '^luac\.c$')
}

run_good() { setarch "$(uname -m)" -R "$1/lua" "$CASE/env.lua"; }
run_bad() { setarch "$(uname -m)" -R "$1/lua" "$CASE/env.lua"; }
