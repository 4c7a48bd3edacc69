// spdlog-movedview: an application of spdlog's asynchronous logger: one
// worker thread (spdlog::init_thread_pool(64, 1, hook): the worker runs the
// hook, 50 ms, before its loop), a file logger with the
// pattern "%v" (the message only), 40 order lines logged, spdlog::shutdown()
// (flushes and joins the worker), then the file read back and checked line
// by line against what was logged (check.cc).
#include <spdlog/async.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <unistd.h>

// check.cc
int check_log(const char *path, int lines);

int main()
{
    // the worker's start-up hook (a thread name, in a real program; here
    // 50 ms of it): the 40 lines are queued before the worker takes one
    spdlog::init_thread_pool(64, 1, [] { usleep(50 * 1000); });
    {
        auto log = spdlog::basic_logger_mt<spdlog::async_factory>("orders", "orders.log", true);
        log->set_pattern("%v");
        for (int i = 0; i < 40; i++)
            log->info("order {:03d}: quantity {}, item {}", i, (i * 7) % 13, 1000 + i * 37);
    }
    spdlog::shutdown(); // the queue drained, the worker joined, the file closed
    int bad = check_log("orders.log", 40);
    printf("40 orders logged, %d lines wrong\n", bad);
    return bad != 0;
}
