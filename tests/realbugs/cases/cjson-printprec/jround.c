/* jround.c - the cjson-printprec case's application (benchmark code):
 * stores the number argv[1] in a cJSON document, prints the document with
 * cJSON_PrintUnformatted (as a program saves its state), parses the text
 * back with cJSON_Parse and checks that the number came back the same.
 * Exit 0: the same double; 1: another one. */
#include <stdio.h>
#include <stdlib.h>
#include "cJSON.h"

__attribute__((noinline)) static int kept(const char *text)
{
    printf("%s: kept\n", text);
    return 0;
}

__attribute__((noinline)) static int drifted(const char *text, double wanted, double back)
{
    printf("%s: the number changed in the round trip (%.17g -> %.17g)\n", text, wanted, back);
    return 1;
}

__attribute__((noinline)) static int verify(double wanted, double back, const char *text)
{
    if (back == wanted)
        return kept(text);
    return drifted(text, wanted, back);
}

int main(int argc, char **argv)
{
    double wanted;
    cJSON *doc, *back;
    char *text;
    int r;
    if (argc < 2) return 2;
    wanted = strtod(argv[1], NULL);
    doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "x", wanted);
    text = cJSON_PrintUnformatted(doc);
    back = cJSON_Parse(text);
    if (!back) return 2;
    r = verify(wanted, cJSON_GetObjectItem(back, "x")->valuedouble, text);
    free(text);
    cJSON_Delete(back);
    cJSON_Delete(doc);
    return r;
}
