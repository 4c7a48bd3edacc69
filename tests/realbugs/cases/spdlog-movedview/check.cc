// spdlog-movedview: the application's check of its log, read back after
// the logger was shut down
#include <cstdio>
#include <fstream>
#include <string>

static std::string expected_line(int i)
{
    char b[96];
    snprintf(b, sizeof b, "order %03d: quantity %d, item %d", i, (i * 7) % 13, 1000 + i * 37);
    return b;
}

void report_line(int i, const std::string &got)
{
    fprintf(stderr, "line %d: \"%s\", logged \"%s\"\n", i + 1, got.c_str(), expected_line(i).c_str());
}

// the number of lines that differ from what was logged (missing ones too)
int check_log(const char *path, int lines)
{
    std::ifstream in(path);
    std::string line;
    int i = 0, bad = 0;
    while (i < lines && std::getline(in, line)) {
        if (line != expected_line(i)) {
            report_line(i, line);
            bad++;
        }
        i++;
    }
    return bad + (lines - i);
}
