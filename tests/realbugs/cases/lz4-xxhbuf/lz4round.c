/* lz4round.c - the lz4-xxhbuf case's application (benchmark code):
 * compresses the file argv[1] in memory as one LZ4 frame with a content
 * checksum (LZ4F_compressFrame), then reads the frame back with
 * LZ4F_decompress (one call) and compares. Exit 0: exact round trip; 1:
 * the decoder reported an error; 3: other bytes. */
#include <stdio.h>
#include <string.h>
#include "lz4frame.h"

static char in[1 << 20], packed[1 << 21], out[1 << 20];

__attribute__((noinline)) static int report(const char *what, size_t code)
{
    printf("%s failed: %s\n", what, LZ4F_getErrorName(code));
    return 1;
}

__attribute__((noinline)) static int check(size_t n, size_t outn)
{
    if (outn != n || memcmp(in, out, n)) { printf("round trip differs\n"); return 3; }
    printf("round trip ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    FILE *f;
    size_t n, packedn, inn, outn = sizeof out, r;
    LZ4F_preferences_t prefs;
    LZ4F_dctx *dctx;
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = fread(in, 1, sizeof in, f);
    fclose(f);
    memset(&prefs, 0, sizeof prefs);
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    packedn = LZ4F_compressFrame(packed, sizeof packed, in, n, &prefs);
    if (LZ4F_isError(packedn)) return report("compress", packedn);
    printf("%zu bytes -> %zu\n", n, packedn);
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION))) return 2;
    inn = packedn;
    r = LZ4F_decompress(dctx, out, &outn, packed, &inn, NULL);
    LZ4F_freeDecompressionContext(dctx);
    if (LZ4F_isError(r)) return report("decompress", r);
    return check(n, outn);
}
