/* yajl-llongmin's application: loads a table schema (schema.json) with
 * yajl's tree API and checks every int64 column's limits, as a tool that
 * validates rows against the schema would before using it. A limit must
 * be a JSON integer (YAJL_IS_INTEGER); exit 1 when one is not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

struct column {
    const char *name;
    long long min, max;
};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = 0;
    fclose(f);
    return buf;
}

/* one limit of a column: the member KEY, which must be an integer */
static int read_limit(yajl_val col, const char *key, long long *out)
{
    const char *path[] = { key, NULL };
    yajl_val v = yajl_tree_get(col, path, yajl_t_number);
    if (!v || !YAJL_IS_INTEGER(v))
        return -1;
    *out = YAJL_GET_INTEGER(v);
    return 0;
}

static int read_column(yajl_val col, struct column *c)
{
    const char *npath[] = { "name", NULL };
    const char *tpath[] = { "type", NULL };
    yajl_val name = yajl_tree_get(col, npath, yajl_t_string);
    yajl_val type = yajl_tree_get(col, tpath, yajl_t_string);
    if (!name || !type || strcmp(YAJL_GET_STRING(type), "int64") != 0)
        return -1;
    c->name = YAJL_GET_STRING(name);
    if (read_limit(col, "min", &c->min) != 0) {
        fprintf(stderr, "column %s: \"min\" is not an int64\n", c->name);
        return -1;
    }
    if (read_limit(col, "max", &c->max) != 0) {
        fprintf(stderr, "column %s: \"max\" is not an int64\n", c->name);
        return -1;
    }
    return c->min <= c->max ? 0 : -1;
}

int main(int argc, char **argv)
{
    char err[256];
    char *text = slurp(argc > 1 ? argv[1] : "schema.json");
    if (!text) {
        perror("schema.json");
        return 2;
    }
    yajl_val doc = yajl_tree_parse(text, err, sizeof err);
    free(text);
    if (!doc) {
        fprintf(stderr, "parse error: %s\n", err);
        return 2;
    }
    const char *cpath[] = { "columns", NULL };
    yajl_val cols = yajl_tree_get(doc, cpath, yajl_t_array);
    if (!cols) {
        fprintf(stderr, "no columns\n");
        return 2;
    }
    size_t n = YAJL_GET_ARRAY(cols)->len;
    struct column *c = calloc(n, sizeof *c);
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = read_column(YAJL_GET_ARRAY(cols)->values[i], &c[i]) != 0;
    if (!bad)
        printf("%zu columns; %s: %lld .. %lld\n", n, c[25].name, c[25].min, c[25].max);
    free(c);
    yajl_tree_free(doc);
    return bad;
}
