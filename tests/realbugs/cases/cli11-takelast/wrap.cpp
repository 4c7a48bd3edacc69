// wrap: reflow a text file's paragraphs to a width (benchmark code for
// tests/realbugs, built against CLI11's headers: the command line is
// parsed by CLI11; the rest is the application)
//
//   wrap [-w WIDTH]... FILE [INDENT]
//
// -w may be given more than once (a shell alias puts a default first):
// the last one counts. INDENT indents every line but a paragraph's first
// by INDENT columns; a negative INDENT is a hanging indent (the first
// line is indented by -INDENT instead).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Settings {
    int width = 72;
    int indent = 0;
    std::string file;
};
Settings cfg;
int lines_out;

void emit_line(const std::string &line, bool first) {
    int pad = 0;
    if(cfg.indent > 0 && !first)
        pad = cfg.indent;
    if(cfg.indent < 0 && first)
        pad = -cfg.indent;
    std::printf("%*s%s\n", pad, "", line.c_str());
    lines_out++;
}

// fill lines with words up to the width (a word longer than the width
// gets a line of its own)
void wrap_paragraph(const std::vector<std::string> &words) {
    std::string line;
    bool first = true;
    int room = cfg.width - (cfg.indent < 0 ? -cfg.indent : 0);
    for(const std::string &w : words) {
        if(!line.empty() && static_cast<int>(line.size() + 1 + w.size()) > room) {
            emit_line(line, first);
            first = false;
            line.clear();
            room = cfg.width - (cfg.indent > 0 ? cfg.indent : 0);
        }
        if(!line.empty())
            line += ' ';
        line += w;
    }
    if(!line.empty())
        emit_line(line, first);
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"reflow a text file's paragraphs"};
    app.add_option("-w,--width", cfg.width, "line width (the last one given counts)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
        ->check(CLI::Range(20, 200));
    app.add_option("file", cfg.file, "text file")->required();
    app.add_option("indent", cfg.indent, "indent of the following lines (negative: hanging indent)");
    CLI11_PARSE(app, argc, argv);

    std::ifstream in(cfg.file);
    if(!in) {
        std::fprintf(stderr, "wrap: cannot open %s\n", cfg.file.c_str());
        return 1;
    }
    std::vector<std::string> words;
    std::string text;
    int paragraphs = 0;
    while(std::getline(in, text)) {
        if(text.find_first_not_of(" \t") == std::string::npos) {
            if(!words.empty()) {
                if(paragraphs++)
                    std::printf("\n");
                wrap_paragraph(words);
                words.clear();
            }
            continue;
        }
        std::istringstream ws(text);
        std::string w;
        while(ws >> w)
            words.push_back(w);
    }
    if(!words.empty()) {
        if(paragraphs++)
            std::printf("\n");
        wrap_paragraph(words);
    }
    std::fprintf(stderr, "wrap: %d paragraphs, %d lines, width %d\n", paragraphs, lines_out, cfg.width);
    return 0;
}
