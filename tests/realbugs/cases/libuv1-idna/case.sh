# libuv1-idna: CVE-2024-24806 reversed: a host name whose ASCII form fills
# uv_getaddrinfo's 256-byte buffer is not rejected but sent, without its
# terminating NUL, to a thread-pool worker (README.md argues the truth)
PKG=libuv1
KIND=patch
PATCH=debian/patches/fix-cve-2024-24806
TRUTH_DIVERGE='^uv_getaddrinfo$'
TRUTH_CAUSE='^uv__idna_toascii$'
TAGS='regression thread return-value'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libuv1.sh

# two lookups on a pool of 2 threads: 127.0.0.1, then a name of 300
# characters (five labels of 59 'a' and 'h')
run_good() {
    long=$(awk 'BEGIN { for (i = 0; i < 5; i++) { for (j = 0; j < 59; j++) printf "a"; printf "." } printf "h" }')
    UV_THREADPOOL_SIZE=2 "$1/app" 127.0.0.1 "$long"
}
run_bad() { run_good "$@"; }
