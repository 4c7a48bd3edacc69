/* zgz.c - the zlib-gzipcrc case's application (benchmark code): makes a
 * gzip stream of the file argv[1] in memory (deflateInit2 with
 * windowBits 31: the gzip wrapper; one deflate call, Z_FINISH), then
 * reads it back with inflate (inflateInit2, windowBits 31; one call) and
 * compares. Exit 0: exact round trip; 1: inflate failed; 3: other bytes. */
#include <stdio.h>
#include <string.h>
#include "zlib.h"

static unsigned char in[1 << 20], packed[1 << 21], out[1 << 20];

__attribute__((noinline)) static int report(const char *what, int ret, const char *msg)
{
    printf("%s failed: %d (%s)\n", what, ret, msg ? msg : "");
    return 1;
}

__attribute__((noinline)) static int check(size_t n, unsigned long outn)
{
    if (outn != n || memcmp(in, out, n)) { printf("round trip differs\n"); return 3; }
    printf("round trip ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    FILE *f;
    size_t n;
    z_stream d, i;
    int ret;
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = fread(in, 1, sizeof in, f);
    fclose(f);
    memset(&d, 0, sizeof d);
    if (deflateInit2(&d, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 2;
    d.next_in = in; d.avail_in = (uInt)n;
    d.next_out = packed; d.avail_out = sizeof packed;
    ret = deflate(&d, Z_FINISH);
    deflateEnd(&d);
    if (ret != Z_STREAM_END) return report("deflate", ret, d.msg);
    printf("%zu bytes -> %lu\n", n, d.total_out);
    memset(&i, 0, sizeof i);
    if (inflateInit2(&i, 31) != Z_OK) return 2;
    i.next_in = packed; i.avail_in = (uInt)d.total_out;
    i.next_out = out; i.avail_out = sizeof out;
    ret = inflate(&i, Z_FINISH);
    inflateEnd(&i);
    if (ret != Z_STREAM_END) return report("inflate", ret, i.msg);
    return check(n, i.total_out);
}
