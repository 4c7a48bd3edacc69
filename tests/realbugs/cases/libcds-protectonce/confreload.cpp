// confreload: a reader thread protects the current configuration with a
// hazard pointer while the main thread reloads it and reclaims the old one
// (benchmark code for tests/realbugs, built against libcds: the
// hazard-pointer SMR, cds::gc::HP, and its Guard are libcds's; the rest
// is the application)
//
// The configuration is published as a node; the reader protects it with
// Guard::protect(current, node_value), whose functor converts the node to
// the value the hazard pointer holds (as libcds's intrusive containers
// do). The first conversion is where the reader is held up, as a
// preemption between the load and the guard's store would hold it: the
// two threads hand the steps over with a condition variable (no sleeps),
// the main thread reloads the configuration, retires the old one and
// forces a scan meanwhile. The reader must end up with a configuration
// that is alive.
#include <cds/gc/hp.h>
#include <cds/init.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

namespace {

struct Config {
    char name[16];
    int version;
    int limit;
};

struct Node {
    Config value;  // first: the value's address is the node's
    int loads;
};

std::atomic<Node *> current;

std::mutex step_mutex;
std::condition_variable step_cv;
int step;

void wait_step(int s) {
    std::unique_lock<std::mutex> lk(step_mutex);
    step_cv.wait(lk, [s] { return step >= s; });
}

void set_step(int s) {
    std::lock_guard<std::mutex> lk(step_mutex);
    step = s;
    step_cv.notify_all();
}

__attribute__((noinline)) Node *make_node(const char *name, int version, int limit) {
    Node *n = new Node;
    std::snprintf(n->value.name, sizeof n->value.name, "%s", name);
    n->value.version = version;
    n->value.limit = limit;
    n->loads = 0;
    return n;
}

// the disposer given to retire: clear (explicit_bzero: a store the
// compiler keeps though the memory is freed next), then free
__attribute__((noinline)) void dispose_node(void *p) {
    Node *n = static_cast<Node *>(p);
    explicit_bzero(n, sizeof *n);
    delete n;
}

bool held_up;

// the guard's functor: node -> the value the hazard pointer holds
__attribute__((noinline)) Config *node_value(Node *n) {
    if(!held_up) {
        held_up = true;
        set_step(1);  // loaded, not yet guarded: the main thread may reload now
        wait_step(2);  // it has, and has reclaimed what no guard held
    }
    return &n->value;
}

__attribute__((noinline)) int check_config(const Config *c) {
    if(c->version > 0 && c->limit > 0) {
        std::printf("reader: configuration %d (limit %d) from %s\n", c->version, c->limit, c->name);
        return 0;
    }
    std::printf("reader: the guarded configuration was reclaimed: version %d, limit %d\n", c->version, c->limit);
    return 1;
}

int reader_status;

void reader() {
    cds::threading::Manager::attachThread();
    {
        cds::gc::HP::Guard guard;
        Node *n = guard.protect(current, node_value);
        reader_status = check_config(&n->value);
    }
    cds::threading::Manager::detachThread();
}

}  // namespace

int main() {
    cds::Initialize();
    int status;
    {
        cds::gc::HP hp(4, 4, 16);  // 4 hazard pointers a thread, 4 threads, 16 retired
        cds::threading::Manager::attachThread();

        current.store(make_node("command line", 2, 250));
        std::thread t(reader);
        wait_step(1);
        // a reload; the old node is retired and, no guard holding it, freed
        Node *old = current.exchange(make_node("reloaded", 3, 400));
        cds::gc::HP::retire(&old->value, dispose_node);
        cds::gc::HP::force_dispose();
        set_step(2);
        t.join();
        status = reader_status;

        Node *last = current.exchange(nullptr);
        cds::gc::HP::retire(&last->value, dispose_node);
        cds::gc::HP::force_dispose();
        cds::threading::Manager::detachThread();
    }
    cds::Terminate();
    return status;
}
