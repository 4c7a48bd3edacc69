/* bzround.c - the bzip2-combinedcrc case's application (benchmark code):
 * compresses the file argv[1] in memory with libbz2's one-shot
 * BZ2_bzBuffToBuffCompress (level 9), keeps the result, then reads it
 * back with BZ2_bzBuffToBuffDecompress and checks it. Exit 0: exact round
 * trip; 1: the decoder reported an error; 3: other bytes. */
#include <stdio.h>
#include <string.h>
#include "bzlib.h"

static char in[1 << 20], packed[1 << 21], out[1 << 20];

__attribute__((noinline)) static int report(const char *what, int ret)
{
    printf("%s failed: %d\n", what, ret);
    return 1;
}

__attribute__((noinline)) static int check(unsigned n, unsigned outn)
{
    if (outn != n || memcmp(in, out, n)) { printf("round trip differs\n"); return 3; }
    printf("round trip ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    FILE *f;
    unsigned n, packedn = sizeof packed, outn = sizeof out;
    int ret;
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = (unsigned)fread(in, 1, sizeof in, f);
    fclose(f);
    ret = BZ2_bzBuffToBuffCompress(packed, &packedn, in, n, 9, 0, 0);
    if (ret != BZ_OK) return report("compress", ret);
    printf("%u bytes -> %u\n", n, packedn);
    ret = BZ2_bzBuffToBuffDecompress(out, &outn, packed, packedn, 0, 0);
    if (ret != BZ_OK) return report("decompress", ret);
    return check(n, outn);
}
