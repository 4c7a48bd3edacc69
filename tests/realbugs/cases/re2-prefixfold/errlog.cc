// errlog: list the errors of a log and check them against the log's own
// count (benchmark code for tests/realbugs, built against RE2: the
// matching is RE2's, the rest is the application)
//
//   errlog FILE
//
// An error line starts with "error: " in any case ("ERROR: ", "Error: ");
// the last line of the log, "# N errors", is the count its writer kept.
// Prints each error's message; exit 1 when the count differs.
#include <re2/re2.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

int errors_found;

__attribute__((noinline)) void report_error(int lineno, const std::string &msg) {
    std::printf("line %d: %s\n", lineno, msg.c_str());
    errors_found++;
}

__attribute__((noinline)) int check_count(int expected) {
    if(expected == errors_found) {
        std::printf("%d errors, as the log says\n", errors_found);
        return 0;
    }
    std::printf("%d errors found, the log says %d\n", errors_found, expected);
    return 1;
}

}  // namespace

int main(int argc, char **argv) {
    if(argc != 2) {
        std::fprintf(stderr, "usage: errlog FILE\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if(!in) {
        std::fprintf(stderr, "errlog: cannot open %s\n", argv[1]);
        return 2;
    }
    const RE2 error_line("^(?i:error): (.*)");
    const RE2 trailer("# (\\d+) errors");
    if(!error_line.ok() || !trailer.ok())
        return 2;
    std::string line, msg;
    int lineno = 0, expected = -1;
    while(std::getline(in, line)) {
        lineno++;
        if(RE2::PartialMatch(line, error_line, &msg))
            report_error(lineno, msg);
        else
            RE2::FullMatch(line, trailer, &expected);
    }
    return check_count(expected);
}
