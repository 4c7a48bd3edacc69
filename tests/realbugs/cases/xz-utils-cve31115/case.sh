# xz-utils-cve31115: CVE-2025-31115, the threaded decoder's worker frees
# its input buffer on a decoding error while the main thread may still be
# copying input into it (README.md argues the ground truth)
PKG=xz-utils
KIND=patch
# Debian's liblzma-mt-dec-Don-t-free-the-input-buffer-too-early-CVE-.patch
# as it stands after the next Debian patch (which edits the same lines):
# fix.patch takes the tree from without the fix to Debian's tree
PATCH=fix.patch
TRUTH_DIVERGE='^worker_decoder$'
TRUTH_CAUSE='^worker_decoder$'
TAGS='thread race regression'
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

# the input: 1200000 bytes that LZMA2 cannot compress (two small linear
# congruential generators added), in Blocks of 1 MiB, compressed by the xz
# just built (untraced), then the first byte of Block 1's data (offset 28
# = 12-byte Stream Header + 16-byte Block Header; an LZMA2 control byte
# 0x01, "uncompressed chunk, dictionary reset") set to 0x03, which no
# LZMA2 chunk may start with
mkinput() {
    LC_ALL=C awk 'BEGIN { x = 1; y = 1
        for (i = 0; i < 1200000; i++) {
            x = (x * 75 + 74) % 65537; y = (y * 171) % 30269
            printf "%c", (x + y) % 255 + 1 } }' >data.bin
    env -u TTCAP_OUT "$1/xz" -T2 --block-size=1048576 -c data.bin >data.xz
    printf '\003' | dd of=data.xz bs=1 seek=28 count=1 conv=notrunc 2>/dev/null
}

# both runs decode the same corrupt file: the fixed build reports the
# error (exit 1), the buggy one crashes in the main thread when the worker
# freed the buffer before the main thread's next copy (a race: about one
# run in three here), so the bad run is repeated, as ttrec --until-fail
# would, up to 30 times until it ends on a signal; the last trace is kept
run_good() {
    mkinput "$1"
    "$1/xz" -T2 -t data.xz
}

run_bad() {
    mkinput "$1"
    n=0
    while :; do
        rm -f "$TTCAP_OUT"
        "$1/xz" -T2 -t data.xz
        st=$?
        n=$((n + 1))
        [ "$st" -gt 128 ] || [ "$n" -ge 30 ] && break
    done
    echo "run_bad: attempt $n ended with status $st" >&2
    return "$st"
}
