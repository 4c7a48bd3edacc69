# xz-utils-mtcheck: `xz -T2 -t` on a two-Block .xz file whose second
# Block has one wrong byte in its CRC64; the worker thread's Block decoder
# returns LZMA_DATA_ERROR and the main thread reports "Compressed data is
# corrupt" (README.md argues the ground truth)
PKG=xz-utils
KIND=input
TRUTH_DIVERGE='^worker_decoder$'
TRUTH_CAUSE='^block_decode$'
TAGS='thread return-value'
SINGLE_THREADED=0

# xz_build SRC OUT : liblzma (static) and the xz command only, threads on
xz_build() {
    cd "$1" || return 1
    ./configure -q --disable-shared --disable-nls --disable-doc \
        --disable-scripts --disable-xzdec --disable-lzmadec \
        --disable-lzmainfo --disable-lzma-links --enable-threads=posix \
        CFLAGS="$TT_CFLAGS" LDFLAGS="$TT_LDFLAGS" || return 1
    make -s -j"${JOBS:-2}" -C src/liblzma || return 1
    make -s -j"${JOBS:-2}" -C src/xz || return 1
    cp src/xz/xz "$2/xz"
}

build() { xz_build "$1" "$2"; }

# the input: 900 text lines (31138 bytes) in two 16 KiB Blocks, compressed
# by the xz just built (untraced: no TTCAP_OUT)
mkinput() {
    awk 'BEGIN { for (i = 1; i <= 900; i++)
        printf "record %06d value %d sum %d\n", i, (i * 7919) % 10007, i * i % 65536 }' >data.txt
    env -u TTCAP_OUT "$1/xz" -T2 --block-size=16384 -c data.txt >data.xz
}

# flipbyte FILE OFFSET : invert one byte in place
flipbyte() {
    v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf '%03o' $((v ^ 255)))" |
        dd of="$1" bs=1 seek="$2" count=1 conv=notrunc 2>/dev/null
}

run_good() {
    mkinput "$1"
    "$1/xz" -T2 -t data.xz
}

# the last byte of Block 2 is the last byte of its CRC64 (Block layout:
# header, compressed data, padding, check); xz --robot -lvv gives the
# Block's offset and total size
run_bad() {
    mkinput "$1"
    off=$(env -u TTCAP_OUT "$1/xz" --robot -lvv data.xz |
        awk -F'\t' '$1 == "block" && $4 == 2 { print $5 + $7 - 1 }')
    [ -n "$off" ] || return 2
    flipbyte data.xz "$off"
    "$1/xz" -T2 -t data.xz
}
