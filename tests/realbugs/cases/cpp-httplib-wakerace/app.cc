// cpp-httplib-notifyempty / cpp-httplib-wakerace: an application of
// cpp-httplib's thread pool (httplib::ThreadPool, the pool its server runs
// connections on). Two workers; the main thread queues a "merge" job that
// waits for a part, then the "part" job that makes it, GAP ms later (GAP:
// argv[1], three digits), and waits for the merge. Needs both workers: the
// merge job holds one until the part job has run on the other.
#include <httplib.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unistd.h>

struct Work {
    std::mutex m;
    std::condition_variable cv;
    bool part_ready = false;
    bool merged = false;
    int part = 0;
    int result = 0;
};

static void make_part(Work &w)
{
    {
        std::lock_guard<std::mutex> l(w.m);
        w.part = 21;
        w.part_ready = true;
    }
    w.cv.notify_all();
}

static void merge(Work &w)
{
    std::unique_lock<std::mutex> l(w.m);
    w.cv.wait(l, [&] { return w.part_ready; });
    w.result = w.part * 2;
    w.merged = true;
    w.cv.notify_all();
}

static int wait_merged(Work &w)
{
    std::unique_lock<std::mutex> l(w.m);
    w.cv.wait(l, [&] { return w.merged; });
    return w.result;
}

int main(int argc, char **argv)
{
    int gap = argc > 1 ? atoi(argv[1]) : 0;
    Work w;
    httplib::ThreadPool pool(2);
    usleep(50000); // both workers wait for jobs
    pool.enqueue([&w] { merge(w); });
    if (gap > 0)
        usleep(gap * 1000);
    pool.enqueue([&w] { make_part(w); });
    int r = wait_merged(w);
    printf("merged %d\n", r);
    pool.shutdown();
    return r == 42 ? 0 : 1;
}
