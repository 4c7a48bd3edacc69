/* jansson-surrogate: an application of jansson that loads a file of
 * records (an array of objects with a "name" and a "score") and prints
 * how many there are and the sum of their scores. */
#include <jansson.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    json_error_t err;
    json_t *doc = json_load_file(argc > 1 ? argv[1] : "records.json", 0, &err);
    if (!doc) {
        fprintf(stderr, "records: %s (line %d, column %d)\n", err.text, err.line, err.column);
        return 1;
    }
    size_t i, n = json_array_size(doc);
    long sum = 0;
    for (i = 0; i < n; i++) {
        json_t *r = json_array_get(doc, i);
        sum += json_integer_value(json_object_get(r, "score"));
    }
    printf("%zu records, score %ld\n", n, sum);
    json_decref(doc);
    return 0;
}
