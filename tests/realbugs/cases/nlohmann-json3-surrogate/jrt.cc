// jrt.cc - the nlohmann-json3-surrogate case's application (benchmark
// code): a small record with an emoji in one string, written as ASCII-only
// JSON (dump with ensure_ascii: every non-ASCII code point as a \u escape,
// a surrogate pair above U+FFFF), parsed back, and its strings compared
// with the ones written. Exit 0: the same; 1: a string differs.
#include <cstdio>
#include <string>
#include <nlohmann/json.hpp>

using json = nlohmann::json;

__attribute__((noinline)) static int report(const char *key, const std::string &was, const std::string &got)
{
    std::printf("%s: wrote %zu bytes, read back %zu bytes, not the same\n", key, was.size(), got.size());
    return 1;
}

__attribute__((noinline)) static int check(const std::string &text)
{
    std::printf("round trip ok: %s\n", text.c_str());
    return 0;
}

int main()
{
    json doc = {
        {"user", "ada"},
        {"city", "Z\xC3\xBCrich"},                 // U+00FC: one \u escape
        {"score", 42},
        {"tags", {"math", "engines"}},
        {"mood", "happy \xF0\x9F\x98\x80"},        // U+1F600: a surrogate pair
    };
    std::string text = doc.dump(-1, ' ', true);
    json back = json::parse(text);
    for (const char *key : {"user", "city", "mood"}) {
        const std::string was = doc[key].get<std::string>();
        const std::string got = back[key].get<std::string>();
        if (was != got) return report(key, was, got);
    }
    return check(text);
}
