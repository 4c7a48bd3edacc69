# goodgood/uvcat.sh - C, an event loop: libuv's own uvcat example
# (docs/code/uvcat), which reads a file through libuv's thread pool
# (uv_fs_read with a callback: the loop waits in epoll, a pool worker
# reads) and writes it to stdout the same way; here a 48 KiB file.
PKG=libuv1
LANG_=C
# uv_build: tests/realbugs/pkgs/libuv1.sh
build() {
    uv_build "$2/uvcat" docs/code/uvcat/main.c || return 1
    awk 'BEGIN { for (i = 1; i <= 2000; i++) printf "line %05d of the input\n", i }' >"$2/in.txt"
}
run() { "$1/uvcat" "$1/in.txt" | cksum; }
