# goodgood/uvcat.sh - C, an event loop: libuv's own uvcat example
# (docs/code/uvcat), which reads a file through libuv's thread pool
# (uv_fs_read with a callback: the loop waits in epoll, a pool worker
# reads) and writes it to stdout the same way; here a 48 KiB file.
PKG=libuv1
LANG_=C
build() {
    rb_cc_prog "$2/uvcat" "-Iinclude -Isrc -D_GNU_SOURCE -D_POSIX_C_SOURCE=200112 -D_FILE_OFFSET_BITS=64 -D_LARGEFILE_SOURCE" \
        "-lpthread -ldl -lrt" \
        src/fs-poll.c src/idna.c src/inet.c src/random.c src/strscpy.c \
        src/strtok.c src/threadpool.c src/timer.c src/uv-common.c \
        src/uv-data-getter-setters.c src/version.c \
        src/unix/async.c src/unix/core.c src/unix/dl.c src/unix/fs.c \
        src/unix/getaddrinfo.c src/unix/getnameinfo.c src/unix/loop-watcher.c \
        src/unix/loop.c src/unix/pipe.c src/unix/poll.c src/unix/process.c \
        src/unix/random-devurandom.c src/unix/signal.c src/unix/stream.c \
        src/unix/tcp.c src/unix/thread.c src/unix/tty.c src/unix/udp.c \
        src/unix/proctitle.c src/unix/linux-core.c src/unix/linux-inotify.c \
        src/unix/linux-syscalls.c src/unix/procfs-exepath.c \
        src/unix/random-getrandom.c src/unix/random-sysctl-linux.c \
        src/unix/epoll.c docs/code/uvcat/main.c
    awk 'BEGIN { for (i = 1; i <= 2000; i++) printf "line %05d of the input\n", i }' >"$2/in.txt"
}
run() { "$1/uvcat" "$1/in.txt" | cksum; }
