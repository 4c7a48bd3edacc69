/* zround.c - the zlib cases' application (benchmark code): compresses the
 * file argv[1] in memory with deflate at the level argv[2] (one deflate
 * call, Z_FINISH), then reads the compressed bytes back with inflate (one
 * call, Z_FINISH) and compares. Exit 0: exact round trip; 1: inflate
 * failed; 3: other bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"

static unsigned char in[1 << 20], packed[1 << 21], out[1 << 20];

int main(int argc, char **argv)
{
    FILE *f;
    size_t n;
    z_stream d, i;
    int ret;
    if (argc < 3 || !(f = fopen(argv[1], "rb"))) return 2;
    n = fread(in, 1, sizeof in, f);
    fclose(f);
    memset(&d, 0, sizeof d);
    if (deflateInit(&d, atoi(argv[2])) != Z_OK) return 2;
    d.next_in = in; d.avail_in = (uInt)n;
    d.next_out = packed; d.avail_out = sizeof packed;
    ret = deflate(&d, Z_FINISH);
    deflateEnd(&d);
    if (ret != Z_STREAM_END) { printf("deflate: %d\n", ret); return 2; }
    printf("%zu bytes -> %lu\n", n, d.total_out);
    memset(&i, 0, sizeof i);
    if (inflateInit(&i) != Z_OK) return 2;
    i.next_in = packed; i.avail_in = (uInt)d.total_out;
    i.next_out = out; i.avail_out = sizeof out;
    ret = inflate(&i, Z_FINISH);
    inflateEnd(&i);
    if (ret != Z_STREAM_END) { printf("inflate: %d (%s)\n", ret, i.msg ? i.msg : ""); return 1; }
    if (i.total_out != n || memcmp(in, out, n)) { printf("round trip differs\n"); return 3; }
    printf("round trip ok\n");
    return 0;
}
