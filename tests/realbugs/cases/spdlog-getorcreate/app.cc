// spdlog-getorcreate's application: a CSV loader with two reader
// threads, each constructing a CsvReader whose constructor gets the
// shared "csv_reader" logger with the usual get-or-create helper
// (spdlog::get, and when that finds nothing a file logger is made,
// configured and registered), as in kuzu's LoggerUtils and spdlog issue
// #905. Configuring a logger reads its settings from the application's
// configuration service (about 100 ms). The second reader starts DELAY ms
// after the first (argv[1]). A reader that fails records why; exit 1 when
// one failed.
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>

// the logger's settings, from the configuration service (its round trip:
// about 100 ms)
static void apply_log_config(spdlog::logger &l)
{
    usleep(100 * 1000);
    l.set_pattern("[%n] %v");
    l.set_level(spdlog::level::info);
}

static std::shared_ptr<spdlog::logger> get_or_create_logger(const std::string &name)
{
    std::shared_ptr<spdlog::logger> logger = spdlog::get(name);
    if (!logger) {
        auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(name + ".log");
        logger = std::make_shared<spdlog::logger>(name, sink);
        apply_log_config(*logger);
        spdlog::register_logger(logger);
    }
    return logger;
}

class CsvReader {
public:
    explicit CsvReader(int part) : part_(part), log_(get_or_create_logger("csv_reader")) {}

    int read(const std::string &text)
    {
        int rows = 0;
        size_t at = 0;
        while (at < text.size()) {
            size_t nl = text.find('\n', at);
            std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
            log_->info("part {} row {}: {} fields", part_, rows, 1 + std::count(line.begin(), line.end(), ','));
            rows++;
            at = nl == std::string::npos ? text.size() : nl + 1;
        }
        return rows;
    }

private:
    int part_;
    std::shared_ptr<spdlog::logger> log_;
};

static std::string failure[2];

static void load_part(int part)
{
    std::string text;
    for (int i = 0; i < 20; i++)
        text += std::to_string(part * 100 + i) + ",name" + std::to_string(i) + "," + std::to_string(i * 3) + "\n";
    try {
        CsvReader r(part);
        r.read(text);
    } catch (const spdlog::spdlog_ex &e) {
        failure[part] = e.what();
    }
}

int main(int argc, char **argv)
{
    int delay = argc > 1 ? atoi(argv[1]) : 300;
    std::thread a(load_part, 0);
    usleep((useconds_t)delay * 1000);
    std::thread b(load_part, 1);
    a.join();
    b.join();
    spdlog::shutdown();
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        if (!failure[i].empty()) {
            fprintf(stderr, "part %d: %s\n", i, failure[i].c_str());
            bad = 1;
        }
    }
    if (!bad)
        printf("2 parts loaded\n");
    return bad;
}
