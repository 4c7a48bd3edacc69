# goodgood/lua-random.sh - C, a seeded PRNG: Lua 5.4 (the interpreter, as
# the lua5.4 cases build it: string-hash seed fixed) running a script that
# seeds math.random with 42, shuffles, sorts and counts. Run with address
# randomisation off (setarch -R), as make realbugs runs lua: Lua's string
# cache (luaS_new) is indexed by the C string's address, so with ASLR two
# runs really make other calls (a cache hit in one, a miss in the other).
PKG=lua5.4
LANG_=C
build() {
    cd "$1/src" || return 1
    printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch)" >lua5.4-deb-multiarch.h
    rb_cc_prog "$2/lua" "-DLUA_COMPAT_5_3 -DLUA_USE_LINUX -Dluai_makeseed(L)=0x2545F491u" \
        "-lm -ldl" $(ls *.c | grep -v '^luac\.c$')
    cat >"$2/random.lua" <<'LUA'
math.randomseed(42)
local t, seen, dup = {}, {}, 0
for i = 1, 3000 do
    local v = math.random(1, 5000)
    t[#t + 1] = v
    if seen[v] then dup = dup + 1 else seen[v] = true end
end
for i = #t, 2, -1 do local j = math.random(i); t[i], t[j] = t[j], t[i] end
table.sort(t)
local s = 0
for i = 1, #t, 7 do s = s + t[i] * i end
print(string.format("n=%d dup=%d sum=%d f=%.6f", #t, dup, s, math.random()))
LUA
}
run() { setarch "$(uname -m)" -R "$1/lua" "$1/random.lua"; }
