/* bzcat1.c - the bzip2-level0 case's application (benchmark code): with
 * -z, compresses stdin to stdout with BZ2_bzBuffToBuffCompress (level 9;
 * used untraced, to make the input); otherwise decompresses the file
 * argv[1] in memory with BZ2_bzBuffToBuffDecompress and prints its size,
 * or the error (exit 1). */
#include <stdio.h>
#include <string.h>
#include "bzlib.h"

static char in[1 << 21], out[1 << 21];

int main(int argc, char **argv)
{
    FILE *f;
    unsigned n, outn = sizeof out;
    int ret;
    if (argc > 1 && strcmp(argv[1], "-z") == 0) {
        n = (unsigned)fread(in, 1, sizeof in, stdin);
        if (BZ2_bzBuffToBuffCompress(out, &outn, in, n, 9, 0, 0) != BZ_OK) return 2;
        fwrite(out, 1, outn, stdout);
        return 0;
    }
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = (unsigned)fread(in, 1, sizeof in, f);
    fclose(f);
    ret = BZ2_bzBuffToBuffDecompress(out, &outn, in, n, 0, 0);
    if (ret != BZ_OK) {
        printf("%s: cannot decompress (error %d)\n", argv[1], ret);
        return 1;
    }
    printf("%s: %u bytes\n", argv[1], outn);
    return 0;
}
