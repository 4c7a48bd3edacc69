/* zdict.c - the zlib-needdict case's application (benchmark code): with
 * -z [DICT], compresses stdin to stdout as one zlib stream (level 6), with
 * DICT as a preset dictionary when given (deflateSetDictionary; used
 * untraced, to make the input); otherwise inflates the file argv[1] in
 * memory, without a dictionary, and prints its size or the error (exit 1). */
#include <stdio.h>
#include <string.h>
#include "zlib.h"

static unsigned char in[1 << 20], out[1 << 21];

int main(int argc, char **argv)
{
    z_stream s;
    FILE *f;
    size_t n;
    int ret;
    memset(&s, 0, sizeof s);
    if (argc > 1 && strcmp(argv[1], "-z") == 0) {
        n = fread(in, 1, sizeof in, stdin);
        if (deflateInit(&s, 6) != Z_OK) return 2;
        if (argc > 2 && deflateSetDictionary(&s, (const Bytef *)argv[2], (uInt)strlen(argv[2])) != Z_OK) return 2;
        s.next_in = in; s.avail_in = (uInt)n;
        s.next_out = out; s.avail_out = sizeof out;
        if (deflate(&s, Z_FINISH) != Z_STREAM_END) return 2;
        fwrite(out, 1, s.total_out, stdout);
        deflateEnd(&s);
        return 0;
    }
    if (argc < 2 || !(f = fopen(argv[1], "rb"))) return 2;
    n = fread(in, 1, sizeof in, f);
    fclose(f);
    if (inflateInit(&s) != Z_OK) return 2;
    s.next_in = in; s.avail_in = (uInt)n;
    s.next_out = out; s.avail_out = sizeof out;
    ret = inflate(&s, Z_FINISH);
    inflateEnd(&s);
    if (ret != Z_STREAM_END) {
        printf("%s: cannot inflate: %d (%s)\n", argv[1], ret, s.msg ? s.msg : "");
        return 1;
    }
    printf("%s: %lu bytes\n", argv[1], s.total_out);
    return 0;
}
