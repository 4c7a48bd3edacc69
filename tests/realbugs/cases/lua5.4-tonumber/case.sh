# lua5.4-tonumber: a data file whose 50000th value is written with a
# decimal comma; tonumber() gives nil there (README.md argues why)
PKG=lua5.4
KIND=input
TRUTH_DIVERGE='^luaB_tonumber$'
TRUTH_CAUSE='^l_str2dloc$|^l_str2d$'
TAGS='return-value big'
SINGLE_THREADED=1

# Lua needs no configure step: every src/*.c but luac.c into one program;
# with a fixed string-hash seed (Lua's luai_makeseed hook, lstate.c:58),
# else the seed mixes time(NULL) and addresses and two good runs differ in
# every table insert
build() {
    cd "$1/src" || return 1
    # what debian/rules writes before building (Debian's module paths)
    printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch)" \
        >lua5.4-deb-multiarch.h
    rb_cc_prog "$2/lua" "-DLUA_COMPAT_5_3 -DLUA_USE_LINUX -Dluai_makeseed(L)=0x2545F491u" "-lm -ldl" \
        $(ls *.c | grep -v '^luac\.c$')
}

# data LINES BADLINE : "itemN;value" lines, value N * 0.25 written with a
# decimal point, except line BADLINE (0: none) written with a comma
data() {
    awk -v n="$1" -v bad="$2" 'BEGIN {
        for (i = 1; i <= n; i++) {
            v = sprintf("%.2f", i * 0.25)
            if (i == bad) sub(/\./, ",", v)
            printf "item%d;%s\n", i, v
        } }'
}

run_good() {
    data 60000 0 >data.txt
    setarch "$(uname -m)" -R "$1/lua" "$CASE/sum.lua" data.txt
}

run_bad() {
    data 60000 50000 >data.txt
    setarch "$(uname -m)" -R "$1/lua" "$CASE/sum.lua" data.txt
}
