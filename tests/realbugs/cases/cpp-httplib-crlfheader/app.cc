// cpp-httplib-crlfheader: a notes service (httplib::Server, on a thread of
// its own, and its pool of workers) and its sync client in one process.
// The client uploads the 12 parts of a document from a manifest, each with
// the content type the manifest gives; the service appends each part to
// the stored document, or replaces the document when the request says
// "X-Upload-Mode: replace". At the end the client reads the document back
// and checks that all 12 parts are in it.
#include <httplib.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>

struct Part {
    const char *name;
    const char *type; // as the manifest gives it
};

// the manifest; part 7's type was copied from an imported file's metadata
static const Part manifest[12] = {
    {"intro", "text/plain"},       {"agenda", "text/plain"},
    {"minutes", "text/markdown"},  {"actions", "text/plain"},
    {"budget", "text/csv"},        {"risks", "text/plain"},
    {"roadmap", "text/markdown"},
    {"imported", "text/plain\r\nX-Upload-Mode: replace"},
    {"owners", "text/plain"},      {"dates", "text/csv"},
    {"links", "text/plain"},       {"summary", "text/markdown"},
};

struct Store {
    std::mutex m;
    std::map<std::string, std::string> docs;
};

static size_t store_part(Store &st, const httplib::Request &req)
{
    std::lock_guard<std::mutex> l(st.m);
    std::string &d = st.docs["notes"];
    if (req.get_header_value("X-Upload-Mode") == "replace")
        d = req.body;
    else
        d += req.body;
    return d.size();
}

static int count_parts(const std::string &doc)
{
    int n = 0;
    for (char c : doc)
        n += c == '\n';
    return n;
}

int main()
{
    Store st;
    httplib::Server svr;
    svr.Post("/doc/notes", [&](const httplib::Request &req, httplib::Response &res) {
        res.set_content(std::to_string(store_part(st, req)), "text/plain");
    });
    svr.Get("/doc/notes", [&](const httplib::Request &, httplib::Response &res) {
        std::lock_guard<std::mutex> l(st.m);
        res.set_content(st.docs["notes"], "text/plain");
    });
    // bound and listening before the thread accepts: the client's
    // connections wait in the backlog until then
    int port = svr.bind_to_any_port("127.0.0.1");
    if (port <= 0)
        return 2;
    std::thread server([&] { svr.listen_after_bind(); });

    httplib::Client cli("127.0.0.1", port);
    int sent = 0;
    for (const Part &p : manifest) {
        std::string body = std::string("part ") + p.name + "\n";
        auto r = cli.Post("/doc/notes", body, p.type);
        if (r && r->status == 200)
            sent++;
    }
    auto r = cli.Get("/doc/notes");
    int parts = r && r->status == 200 ? count_parts(r->body) : -1;
    svr.stop();
    server.join();
    if (parts != 12) {
        std::fprintf(stderr, "notes: %d parts stored of %d sent\n", parts, sent);
        return 1;
    }
    std::printf("notes: %d parts stored\n", parts);
    return 0;
}
