# pbzip2-nowait: a fault patch (fault.patch) that mimics a real ordering
# bug class (a wait predicate got wrong): pbzip2's file writer thread waits
# for the next block only when it continues a multi-part block, so it
# takes block 0's empty output slot before a compressor thread has filled
# it (README.md argues the ground truth)
PKG=pbzip2
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^fileWriter(\(void\*\))?$'
TRUTH_CAUSE='^fileWriter(\(void\*\))?$'
TAGS='cxx thread race regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/pbzip2.sh (pbzip2_input makes data.bin)

run_good() {
    pbzip2_input "$1"
    "$1/pbzip2" -b1 -p2 -k -c data.bin >out.bz2 && bzip2 -dc out.bz2 | cmp -s - data.bin
}

# the bad build's output is wrong (or the run crashes) whenever the writer
# looks at block 0's slot before it is filled, which is nearly always;
# a run that still came out right is repeated (as ttrec --until-fail
# would), at most 10 times; the last trace is kept
run_bad() {
    pbzip2_input "$1"
    n=0
    while :; do
        rm -f "$TTCAP_OUT" out.bz2
        timeout 60 "$1/pbzip2" -b1 -p2 -k -c data.bin >out.bz2
        st=$?
        n=$((n + 1))
        if [ "$st" -ne 0 ] || ! bzip2 -dc out.bz2 2>/dev/null | cmp -s - data.bin; then
            break
        fi
        [ "$n" -ge 10 ] && break
    done
    echo "run_bad: attempt $n ended with status $st" >&2
    return "$st"
}

needs() {
    command -v bzip2 >/dev/null 2>&1 || { echo "needs bzip2 (to check the output)"; exit 1; }
}
