/* lz4cat1.c - the lz4-headerhc case's application (benchmark code): with
 * -z, compresses stdin to stdout as one LZ4 frame with a content checksum
 * (LZ4F_compressFrame; used untraced, to make the input); otherwise reads
 * the frame in the file argv[1] with LZ4F_decompress (one call) and
 * prints the decoded size, or the error (exit 1). */
#include <stdio.h>
#include <string.h>
#include "lz4frame.h"

static char in[1 << 21], out[1 << 21];

int main(int argc, char **argv)
{
    FILE *f;
    size_t n, inn, outn = sizeof out, r;
    LZ4F_dctx *dctx;
    if (argc > 1 && strcmp(argv[1], "-z") == 0) {
        LZ4F_preferences_t prefs;
        memset(&prefs, 0, sizeof prefs);
        prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
        n = fread(in, 1, sizeof in, stdin);
        r = LZ4F_compressFrame(out, sizeof out, in, n, &prefs);
        if (LZ4F_isError(r)) return 2;
        fwrite(out, 1, r, stdout);
        return 0;
    }
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = fread(in, 1, sizeof in, f);
    fclose(f);
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION))) return 2;
    inn = n;
    r = LZ4F_decompress(dctx, out, &outn, in, &inn, NULL);
    LZ4F_freeDecompressionContext(dctx);
    if (LZ4F_isError(r)) {
        printf("%s: %s\n", argv[1], LZ4F_getErrorName(r));
        return 1;
    }
    printf("%s: %zu bytes\n", argv[1], outn);
    return 0;
}
