# glib2.0-idlewake: a fault patch (fault.patch) that mimics a real bug
# class of GLib's tracker (a wake-up of a context polled by another
# thread skipped by a wrong condition: GNOME/glib PR #21 "poll is hanging
# despite added new source"): g_source_attach_unlocked signals the
# context's wake-up only when the attaching thread is the context's
# owner, not when another thread owns it; a result posted with g_idle_add
# from a worker never wakes the main loop, which sleeps in poll() forever
# (README.md argues the ground truth)
PKG=glib2.0
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^g_source_attach_unlocked(\.|$)'
TRUTH_CAUSE='^g_source_attach_unlocked(\.|$)'
TAGS='thread race regression hang'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/glib2.0.sh (with this folder's app.c)

run_good() { "$1/app"; }

# the bad process never ends by itself (README.md): ended after 5 s
# (SIGTERM, SIGKILL 2 s later), status 124
run_bad() { timeout -k 2 5 "$1/app"; }
