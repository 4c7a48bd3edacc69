/* unbr.c - the brotli-largewin case's application (benchmark code): a
 * standard brotli reader (as for HTTP Content-Encoding: br): decodes the
 * file argv[1] with the one-shot BrotliDecoderDecompress (no large-window
 * support asked for) and prints the decoded size, or the error. */
#include <stdio.h>
#include <stdlib.h>
#include "brotli/decode.h"

static uint8_t in[1 << 20], out[1 << 22];

int main(int argc, char **argv)
{
    FILE *f;
    size_t n, outn = sizeof out;
    BrotliDecoderResult r;
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = fread(in, 1, sizeof in, f);
    fclose(f);
    r = BrotliDecoderDecompress(n, in, &outn, out);
    if (r != BROTLI_DECODER_RESULT_SUCCESS) {
        printf("%s: not a brotli stream this reader can decode (result %d)\n", argv[1], (int)r);
        return 1;
    }
    printf("%s: %zu bytes\n", argv[1], outn);
    return 0;
}
