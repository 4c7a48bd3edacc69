# pbzip2-detach: a fault patch (fault.patch) that mimics a real ordering
# bug class (a thread detached instead of joined): main no longer waits
# for the file writer thread before it closes stdout and exits, so the
# writer's last write can come too late (README.md argues the truth)
PKG=pbzip2
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^fileWriter(\(void\*\))?$'
TRUTH_CAUSE='^main$'
TAGS='cxx thread race regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/pbzip2.sh (pbzip2_input makes data.bin)

run_good() {
    pbzip2_input "$1"
    "$1/pbzip2" -b1 -p2 -k -c data.bin >out.bz2 && bzip2 -dc out.bz2 | cmp -s - data.bin
}

# the bad build loses the race in about 1 run in 7 (untraced, here):
# repeated until its output is wrong or it fails (as ttrec --until-fail
# would), at most 25 times; the last trace is kept
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
        [ "$n" -ge 25 ] && break
    done
    echo "run_bad: attempt $n ended with status $st" >&2
    return "$st"
}

needs() {
    command -v bzip2 >/dev/null 2>&1 || { echo "needs bzip2 (to check the output)"; exit 1; }
}
