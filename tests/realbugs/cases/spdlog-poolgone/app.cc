// spdlog-poolgone's application: an import service with an async logger
// (spdlog's thread pool) shared by the main thread and an import worker.
// The worker imports 20 batches (5 ms each) and logs each; the main thread
// waits for the service's grace period (ms, on the command line), then
// stops the service: spdlog::shutdown() first, then the worker's join (the
// order of spdlog issue #2937's "async log: thread pool doesn't exist
// anymore" reports). Every log line is needed for the audit: the
// application counts the logger's errors and the lines in import.log.
// Exit 0 when all 22 lines are there, 1 otherwise.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>
#include "spdlog/spdlog.h"
#include "spdlog/async.h"
#include "spdlog/sinks/basic_file_sink.h"

static std::atomic<int> log_errors{0};

static std::shared_ptr<spdlog::logger> make_logger()
{
    spdlog::init_thread_pool(1024, 1);
    auto log = spdlog::create_async<spdlog::sinks::basic_file_sink_mt>("import", "import.log", true);
    log->set_pattern("%l %v");
    log->set_error_handler([](const std::string &) { log_errors++; });
    return log;
}

static void import_batches(std::shared_ptr<spdlog::logger> log, int n)
{
    for (int i = 0; i < n; i++) {
        usleep(5 * 1000);   // the batch's work
        log->info("batch {} imported, {} rows", i, 100 + 7 * i);
    }
}

static void stop_service(std::thread &worker)
{
    spdlog::shutdown();   // flushes and frees the thread pool ...
    worker.join();        // ... while the worker may still log
}

static int count_lines(const char *path)
{
    FILE *f = std::fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, c;
    while ((c = std::fgetc(f)) != EOF)
        n += c == '\n';
    std::fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    long grace = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1500;
    auto log = make_logger();
    log->info("import service started");
    std::thread worker(import_batches, log, 20);
    usleep(static_cast<useconds_t>(grace) * 1000);
    log->info("stopping the service");
    log.reset();
    stop_service(worker);
    int lines = count_lines("import.log");
    if (lines != 22 || log_errors) {
        std::fprintf(stderr, "import.log: %d lines of 22, %d log errors\n", lines,
                     log_errors.load());
        return 1;
    }
    std::printf("import.log: %d lines\n", lines);
    return 0;
}
