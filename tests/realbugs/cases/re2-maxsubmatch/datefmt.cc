// datefmt: rewrite the ISO dates (YYYY-MM-DD) at the start of each line of
// a log to the day-first form DD/MM/YYYY (benchmark code for
// tests/realbugs, built against RE2: the matching and the rewrite are
// RE2's, the rest is the application)
//
//   datefmt FILE
//
// Prints each line with its date rewritten; a line that does not start
// with a date is reported and counted; exit 1 when there was one.
#include <re2/re2.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

int bad_lines;

__attribute__((noinline)) void report_undated(int lineno, const std::string &line) {
    std::fprintf(stderr, "datefmt: line %d has no date: %s\n", lineno, line.c_str());
    bad_lines++;
}

}  // namespace

int main(int argc, char **argv) {
    if(argc != 2) {
        std::fprintf(stderr, "usage: datefmt FILE\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if(!in) {
        std::fprintf(stderr, "datefmt: cannot open %s\n", argv[1]);
        return 2;
    }
    const RE2 iso("^(\\d{4})-(\\d{2})-(\\d{2})");
    if(!iso.ok())
        return 2;
    std::string line;
    int lineno = 0, done = 0;
    while(std::getline(in, line)) {
        lineno++;
        if(!RE2::Replace(&line, iso, "\\3/\\2/\\1")) {
            report_undated(lineno, line);
            continue;
        }
        std::printf("%s\n", line.c_str());
        done++;
    }
    std::fprintf(stderr, "datefmt: %d lines rewritten, %d without a date\n", done, bad_lines);
    return bad_lines ? 1 : 0;
}
