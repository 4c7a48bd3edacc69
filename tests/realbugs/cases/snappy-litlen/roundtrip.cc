// roundtrip.cc - the snappy-litlen case's application (benchmark code):
// compresses the file argv[1] with snappy::Compress, keeps the compressed
// bytes, then reads them back with snappy::Uncompress and checks the
// result against the original. Exit 0 when the round trip is exact, 1
// when Uncompress fails, 3 when it succeeds with other bytes.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include "snappy.h"

__attribute__((noinline)) static std::string load(const char* path)
{
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

int main(int argc, char** argv)
{
    if (argc < 2) return 2;
    std::string in = load(argv[1]);
    std::string packed;
    size_t n = snappy::Compress(in.data(), in.size(), &packed);
    printf("%zu bytes -> %zu\n", in.size(), n);
    std::string out;
    if (!snappy::Uncompress(packed.data(), packed.size(), &out)) {
        printf("uncompress: corrupt input\n");
        return 1;
    }
    if (out != in) { printf("round trip differs\n"); return 3; }
    printf("round trip ok\n");
    return 0;
}
