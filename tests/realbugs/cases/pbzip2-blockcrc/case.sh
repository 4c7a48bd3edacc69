# pbzip2-blockcrc: pbzip2 -d -p2 of a three-stream file whose second
# stream's stored block CRC is wrong: the consumer thread decoding it gets
# BZ_DATA_ERROR from libbz2 and the run ends with an error (README.md
# argues the ground truth)
PKG=pbzip2
KIND=input
TRUTH_DIVERGE='^BZ2_bzDecompress$'
TRUTH_CAUSE='^BZ2_bzDecompress$'
TAGS='cxx thread return-value'
SINGLE_THREADED=0

# build, pbzip2_input, stream_offset: tests/realbugs/pkgs/pbzip2.sh

run_good() {
    pbzip2_input "$1"
    "$1/pbzip2" -d -p2 -c data.bz2 >out.bin && cmp -s out.bin data.bin
}

# the same file with one bit of stream 2's stored block CRC flipped
# (byte 10 of the stream: after "BZh9" and the 6-byte block magic)
run_bad() {
    pbzip2_input "$1"
    o=$(( $(stream_offset 2) + 10 ))
    b=$(od -An -tu1 -j "$o" -N1 data.bz2 | tr -d ' ')
    printf "\\$(printf '%03o' $(( b ^ 1 )))" | dd of=data.bz2 bs=1 seek="$o" count=1 conv=notrunc 2>/dev/null
    "$1/pbzip2" -d -p2 -c data.bz2 >out.bin
}
