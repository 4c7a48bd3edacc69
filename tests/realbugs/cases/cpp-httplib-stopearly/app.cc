// cpp-httplib-stopearly's application: a maintenance job with an embedded
// status server, the wrapper pattern of cpp-httplib issues #937 ("Cannot
// graceful stop") and #1645 ("It is impossible to shut down the server
// safely": the listening thread has work to do before it listens).
// start() runs a thread that prepares the status page (50 ms) and then
// Server::listen; stop() calls Server::stop() and joins that thread. The
// job drains for the time given in ms on the command line (a queue's
// remaining work), then stops the status server and exits 0. With nothing
// to drain (000) the stop comes at once.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <unistd.h>
#include "httplib.h"

class StatusServer {
public:
    void start(const char *host, int port)
    {
        thread_.reset(new std::thread([this, host, port] {
            prepare();
            listened_ = server_.listen(host, port);
        }));
    }
    void stop()
    {
        server_.stop();
        thread_->join();
    }
    bool listened() const { return listened_; }

private:
    // on the listening thread, before it listens: the status page's
    // route and its template (50 ms of work, a wait in the C library here)
    void prepare()
    {
        server_.Get("/status", [](const httplib::Request &, httplib::Response &res) {
            res.set_content("draining\n", "text/plain");
        });
        usleep(50 * 1000);
    }

    httplib::Server server_;
    std::unique_ptr<std::thread> thread_;
    bool listened_ = false;
};

// the queue's remaining work, as a wait in the C library (the same calls
// whatever the time)
static void drain(long ms)
{
    usleep(static_cast<useconds_t>(ms) * 1000);
}

int main(int argc, char **argv)
{
    long ms = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 200;
    StatusServer status;
    status.start("127.0.0.1", 18437);
    drain(ms);
    status.stop();
    std::printf("drained for %ld ms, status server %s\n", ms,
                status.listened() ? "stopped" : "did not listen");
    return 0;
}
