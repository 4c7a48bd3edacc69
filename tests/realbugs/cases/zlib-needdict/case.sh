# zlib-needdict: a zlib stream made with a preset dictionary (FDICT set)
# given to a reader that has none, instead of a plain stream: inflate
# stops at the header's dictionary id and returns Z_NEED_DICT (README.md
# argues the ground truth)
PKG=zlib
KIND=input
TRUTH_DIVERGE='^inflate$'
TRUTH_CAUSE='^inflate$'
TAGS='input-char'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/zdict" "-I." "" adler32.c crc32.c deflate.c inflate.c \
        infback.c inftrees.c inffast.c trees.c zutil.c "$CASE/zdict.c"
}

mkdata() {
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 1500; i++) printf "record %d: value %d\n", i, (i * 7919) % 10007 }'
}

run_good() {
    mkdata | env -u TTCAP_OUT "$1/zdict" -z >data.z
    "$1/zdict" data.z
}
run_bad() {
    mkdata | env -u TTCAP_OUT "$1/zdict" -z "record value" >data.z
    "$1/zdict" data.z
}
