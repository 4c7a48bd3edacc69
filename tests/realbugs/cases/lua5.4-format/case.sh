# lua5.4-format: string.format("%d") of a quantity halved with "/": an odd
# quantity gives a float with no integer representation (README.md argues
# the ground truth)
PKG=lua5.4
KIND=input
TRUTH_DIVERGE='^luaL_checkinteger$'
TRUTH_CAUSE='^luaV_flttointeger$'
TAGS='return-value'
SINGLE_THREADED=1

# as lua5.4-tonumber: every src/*.c but luac.c, fixed string-hash seed
build() {
    cd "$1/src" || return 1
    printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch)" \
        >lua5.4-deb-multiarch.h
    rb_cc_prog "$2/lua" "-DLUA_COMPAT_5_3 -DLUA_USE_LINUX -Dluai_makeseed(L)=0x2545F491u" \
        "-lm -ldl" $(ls *.c | grep -v '^luac\.c$')
}

# orders ODDLINE : 20000 "itemN qty price" lines, even quantities except
# on line ODDLINE (0: none)
orders() {
    awk -v odd="$1" 'BEGIN {
        for (i = 1; i <= 20000; i++)
            printf "item%d %d %d\n", i, (i == odd) ? 2 * (i % 50) + 7 : 2 * (i % 50) + 8, i % 997 }'
}

run_good() {
    orders 0 >orders.txt
    setarch "$(uname -m)" -R "$1/lua" "$CASE/ship.lua" orders.txt
}
run_bad() {
    orders 15000 >orders.txt
    setarch "$(uname -m)" -R "$1/lua" "$CASE/ship.lua" orders.txt
}
