# brotli-largewin: a stream made with brotli's large-window extension
# (--large_window=25) given to a standard decoder (the one-shot
# BrotliDecoderDecompress, large windows not enabled) instead of a normal
# stream (-w 22): DecodeWindowBits finds the reserved window-bits code
# (README.md argues the ground truth)
PKG=brotli
KIND=input
TRUTH_DIVERGE='^DecodeWindowBits$'
TRUTH_CAUSE='^DecodeWindowBits$'
# -pg build: DecodeWindowBits has no symbol in decode.o (inlined into
# BrotliDecoderDecompressStream, nm; README.md)
TRUTH_DIVERGE_VALUES='^BrotliDecoderDecompressStream$'
TRUTH_CAUSE_VALUES='^(DecodeWindowBits|BrotliDecoderDecompressStream)$'
TAGS='input-char'
SINGLE_THREADED=1

# the decoder library (common + dec) and unbr.c, traced; the brotli
# command (all of the library), untraced, only to make the two inputs
build() {
    rb_cc_prog "$2/unbr" "-Ic/include" "" c/common/*.c c/dec/*.c "$CASE/unbr.c" || return 1
    ${CC:-cc} -O2 -Ic/include -o "$2/brotli-cli" c/common/*.c c/dec/*.c c/enc/*.c c/tools/brotli.c -lm
}

mkdata() {
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 20000; i++) printf "line %d: the quick brown fox %d\n", i, (i * 7919) % 1000 }' >data.txt
}

run_good() {
    mkdata
    "$1/brotli-cli" -q 5 -w 22 -c data.txt >data.br
    "$1/unbr" data.br
}
run_bad() {
    mkdata
    "$1/brotli-cli" -q 5 --large_window=25 -c data.txt >data.br
    "$1/unbr" data.br
}
