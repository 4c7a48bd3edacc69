// confswap: a reader thread holds the current configuration under a
// hazard pointer while the main thread replaces it and reclaims what no
// reader holds (benchmark code for tests/realbugs, built against libcds:
// the hazard-pointer SMR, cds::gc::HP, is libcds's; the rest is the
// application)
//
// The two threads hand the steps over with a condition variable (no
// sleeps): the reader protects the configuration and reads it, the main
// thread replaces it, retires the old one and forces a scan, then the
// reader reads its configuration again: a configuration a guard holds
// must not have been disposed of. The scan type is the classic one
// (cds::gc::HP::scan_type::classic), which takes any pointer.
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

std::atomic<Config *> current;

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

__attribute__((noinline)) Config *make_config(const char *name, int version, int limit) {
    Config *c = new Config;
    std::snprintf(c->name, sizeof c->name, "%s", name);
    c->version = version;
    c->limit = limit;
    return c;
}

// the disposer given to retire: clear (explicit_bzero: a store the
// compiler keeps though the memory is freed next), then free
__attribute__((noinline)) void dispose_config(void *p) {
    Config *c = static_cast<Config *>(p);
    explicit_bzero(c, sizeof *c);
    delete c;
}

__attribute__((noinline)) int check_config(const Config *c, int version, int limit) {
    if(c->version == version && c->limit == limit) {
        std::printf("reader: configuration %d (limit %d) unchanged under its guard\n", version, limit);
        return 0;
    }
    std::printf("reader: configuration %d (limit %d) changed under its guard: version %d, limit %d\n", version,
                limit, c->version, c->limit);
    return 1;
}

int reader_status;

void reader() {
    cds::threading::Manager::attachThread();
    {
        cds::gc::HP::Guard guard;
        const Config *c = guard.protect(current);
        int version = c->version, limit = c->limit;
        set_step(1);  // the main thread may replace it now
        wait_step(2);  // it has, and has reclaimed what it could
        reader_status = check_config(c, version, limit);
    }
    cds::threading::Manager::detachThread();
}

}  // namespace

int main() {
    cds::Initialize();
    int status;
    {
        // 4 hazard pointers a thread, 4 threads, 16 retired pointers a thread
        cds::gc::HP hp(4, 4, 16, cds::gc::HP::scan_type::classic);
        cds::threading::Manager::attachThread();

        // the start-up configuration, replaced at once by the one read
        // from the command line: the first is retired, no reader holds it
        current.store(make_config("defaults", 1, 100));
        cds::gc::HP::retire(current.exchange(make_config("command line", 2, 250)), dispose_config);

        std::thread t(reader);
        wait_step(1);
        // a reload: the reader holds configuration 2
        cds::gc::HP::retire(current.exchange(make_config("reloaded", 3, 400)), dispose_config);
        cds::gc::HP::force_dispose();
        set_step(2);
        t.join();
        status = reader_status;

        cds::gc::HP::retire(current.exchange(nullptr), dispose_config);
        cds::gc::HP::force_dispose();
        cds::threading::Manager::detachThread();
    }
    cds::Terminate();
    return status;
}
