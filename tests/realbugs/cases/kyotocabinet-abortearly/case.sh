# kyotocabinet-abortearly: a fault patch (fault.patch) of a real ordering
# bug class (a shutdown flag published before the queue it ends is
# drained): Kyoto Cabinet's TaskQueue::finish marks the worker threads
# aborted in its first critical section, not after the queue is empty;
# each worker stops after its current task, the queued tasks are never
# taken and finish waits for an empty queue forever (ended after 10 s)
# (README.md argues the ground truth)
PKG=kyotocabinet
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^kyotocabinet::TaskQueue::WorkerThread::run\('
TRUTH_CAUSE='^kyotocabinet::TaskQueue::finish\('
TAGS='cxx thread order regression hang'
SINGLE_THREADED=0

# the thread layer alone (kcthread.cc, kcutil.cc; TaskQueue is inline in
# kcthread.h) with blocksum.cc, no configure: _MYGCCATOMIC as configure
# sets it for gcc on x86-64
build() {
    rb_cc_prog "$2/blocksum" "-I. -D_MYGCCATOMIC" "-pthread" \
        kcthread.cc kcutil.cc "$CASE/blocksum.cc"
}

run_good() { "$1/blocksum"; }

run_bad() { timeout -k 5 10 "$1/blocksum"; }
