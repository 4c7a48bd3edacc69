# libuv1-asyncrace: one build with libuv1-asyncclear's fault (the async
# handle's pending flag cleared after the callback, not before), two
# timings of the application (the producer's pause before message 2):
# message 2 sent after the callback returned (good) or while it runs (bad:
# the send reads the flag still set, skips the wake-up, the message is
# never handled). Same code in both runs, so no code_changed evidence
# (README.md argues the ground truth)
PKG=libuv1
KIND=input
# plain: the producer's second uv_async_send (uv__async_send in the good
# run only); values: uv__async_send is inlined (nm), the loop thread's next
# uv__io_poll parts first (README.md)
TRUTH_DIVERGE='^uv_async_send$'
TRUTH_DIVERGE_VALUES='^uv__io_poll$'
# plain builds split uv__async_io by partial inlining (libuv1-asyncclear's
# erratum: nm lists uv__async_io.part.0)
TRUTH_CAUSE='^uv__async_io(\.part\.[0-9]+)?$'
TAGS='thread race'
SINGLE_THREADED=0

# the library's sources (tests/realbugs/pkgs/libuv1.sh) with the fault
# (this folder's fault.patch, libuv1-asyncclear's) and this folder's app.c
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    uv_build "$2/app" "$CASE/app.c"
}

# message 2 300 ms after message 1 was taken (its 100 ms callback is over)
run_good() {
    "$1/app" 300
}

# at once (the callback still runs): the watchdog reports 1 of 2, exit 1
run_bad() {
    timeout -k 5 30 "$1/app" 000
}
