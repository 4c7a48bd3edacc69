# lua5.4-tonumber: a data file whose 250000th value is written with a
# decimal comma; tonumber() gives nil there (README.md argues why)
PKG=lua5.4
KIND=input
TRUTH_DIVERGE='^luaB_tonumber$'
TRUTH_CAUSE='^l_str2dloc$|^l_str2d$'
TAGS='return-value big'
SINGLE_THREADED=1

# Lua needs no configure step: every src/*.c but luac.c into one program
build() {
    cd "$1/src" || return 1
    rb_cc_prog "$2/lua" "-DLUA_COMPAT_5_3 -DLUA_USE_LINUX" "-lm -ldl" \
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
    data 300000 0 >data.txt
    "$1/lua" "$CASE/sum.lua" data.txt
}

run_bad() {
    data 300000 250000 >data.txt
    "$1/lua" "$CASE/sum.lua" data.txt
}
