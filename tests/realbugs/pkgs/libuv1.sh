# pkgs/libuv1.sh - how the libuv1 cases build (sourced before a case.sh
# whose PKG is libuv1, and before a goodgood/ program's script): the
# library's sources for Linux as CMakeLists.txt lists them (no CMake), with
# the case's application $CASE/app.c (uv_build: with any main file).
# uv_build BIN MAIN.c : the library's sources and MAIN.c into BIN
uv_build() {
    rb_cc_prog "$1" "-Iinclude -Isrc -D_GNU_SOURCE -D_POSIX_C_SOURCE=200112 -D_FILE_OFFSET_BITS=64 -D_LARGEFILE_SOURCE" \
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
        src/unix/epoll.c "$2"
}

build() { uv_build "$2/app" "$CASE/app.c"; }
