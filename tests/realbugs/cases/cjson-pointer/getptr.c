/* getptr FILE POINTER: print the value that the JSON pointer (RFC 6901)
 * POINTER selects in the JSON document FILE, or say there is none (exit
 * 1). A minimal user of cJSON and cJSON_Utils, as an application calls
 * them (the library is Debian's cjson; this program is the benchmark's). */
#include <stdio.h>
#include <stdlib.h>
#include "cJSON.h"
#include "cJSON_Utils.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0)
        return NULL;
    rewind(f);
    buf = malloc((size_t)n + 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    char *text, *out;
    cJSON *doc, *item;

    if (argc != 3) {
        fprintf(stderr, "usage: getptr FILE POINTER\n");
        return 2;
    }
    text = slurp(argv[1]);
    doc = text != NULL ? cJSON_Parse(text) : NULL;
    if (doc == NULL) {
        fprintf(stderr, "getptr: %s: not a JSON document\n", argv[1]);
        return 2;
    }
    item = cJSONUtils_GetPointer(doc, argv[2]);
    if (item == NULL) {
        fprintf(stderr, "getptr: %s: no such value\n", argv[2]);
        return 1;
    }
    out = cJSON_PrintUnformatted(item);
    puts(out);
    free(out);
    cJSON_Delete(doc);
    free(text);
    return 0;
}
