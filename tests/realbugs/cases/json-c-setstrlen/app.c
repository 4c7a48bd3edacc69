/* app.c - the json-c-setstrlen case's application (benchmark code): a job
 * record {"job":"j7","status":"new"} is parsed, its status string object
 * is updated in place through a job's life with json_object_set_string
 * ("new" -> "running on worker 3 of 4" -> "done"), and after each update
 * check_status reads it back (json_object_get_string) and compares it
 * with what was set. Exit 0 when every read-back matches and the record
 * serialises as expected; the first mismatch is reported, exit 1. */
#include <stdio.h>
#include <string.h>
#include <json.h>

static const char *steps[] = { "running on worker 3 of 4", "done" };

/* 0 when the record's status reads back as WANT (noinline: a frame of its
 * own in both modes, the -pg build would inline it into main) */
__attribute__((noinline)) static int check_status(struct json_object *rec, const char *want)
{
    struct json_object *st;
    const char *got;
    if (!json_object_object_get_ex(rec, "status", &st))
        return -1;
    got = json_object_get_string(st);
    if (got == NULL || strcmp(got, want) != 0 ||
        json_object_get_string_len(st) != (int)strlen(want))
        return -1;
    return 0;
}

int main(void)
{
    struct json_object *rec, *st;
    const char *out;
    /* json-c seeds its default string hash from getrandom (linkhash.c
     * lh_char_hash): the seedless one makes two runs hash alike */
    json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE);
    rec = json_tokener_parse("{\"job\":\"j7\",\"status\":\"new\"}");
    if (rec == NULL || !json_object_object_get_ex(rec, "status", &st))
        return 2;
    for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (!json_object_set_string(st, steps[i]))
            return 2;
        if (check_status(rec, steps[i]) != 0) {
            printf("status %u does not read back as \"%s\"\n", i, steps[i]);
            return 1;
        }
    }
    out = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN);
    printf("%s\n", out);
    if (strcmp(out, "{\"job\":\"j7\",\"status\":\"done\"}") != 0)
        return 1;
    json_object_put(rec);
    return 0;
}
