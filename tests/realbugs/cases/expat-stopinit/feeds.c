/* feeds.c - the expat-stopinit case's application (benchmark code): an
 * event-driven reader of two XML feeds, one expat parser each, fed in
 * chunks through expat's buffer interface (XML_GetBuffer, then
 * XML_ParseBuffer when the data has "arrived"). While its consumer is
 * busy the reader pauses every parser (XML_StopParser, resumable) and
 * afterwards resumes them (XML_ResumeParser); a parser that was not
 * running refuses both, which the reader ignores. Here the pause comes
 * after the first feed's first chunk and after the second feed's buffer
 * was taken, before its data arrived. Exit 0: both feeds parsed, items
 * counted; 1: a parse failed. Each parser's hash salt is fixed, so two
 * runs make the same calls. */
#include <stdio.h>
#include <string.h>
#include "expat.h"

struct feed {
    const char *name, *text;
    XML_Parser p;
    size_t done;
    int items;
};

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    struct feed *f = ud;
    (void)atts;
    if (strcmp(name, "item") == 0)
        f->items++;
}

/* feed N more bytes of f's text (final when it is the rest) into the
 * buffer expat gave, then parse them */
static int feed_chunk(struct feed *f, void *buf, size_t n)
{
    size_t left = strlen(f->text) - f->done;
    if (n > left)
        n = left;
    memcpy(buf, f->text + f->done, n);
    f->done += n;
    if (XML_ParseBuffer(f->p, (int)n, f->done == strlen(f->text)) == XML_STATUS_ERROR) {
        printf("%s: %s at line %lu\n", f->name, XML_ErrorString(XML_GetErrorCode(f->p)),
               XML_GetCurrentLineNumber(f->p));
        return 1;
    }
    return 0;
}

/* the consumer is busy: pause every parser, then resume them */
__attribute__((noinline)) static void pause_all(struct feed *fs, int n)
{
    for (int i = 0; i < n; i++)
        XML_StopParser(fs[i].p, XML_TRUE);
}

__attribute__((noinline)) static void resume_all(struct feed *fs, int n)
{
    for (int i = 0; i < n; i++)
        XML_ResumeParser(fs[i].p);
}

int main(void)
{
    struct feed fs[2] = {
        { "news", "<?xml version=\"1.0\"?>\n<feed><item id=\"1\">rain</item>"
                  "<item id=\"2\">sun</item><item id=\"3\">wind</item></feed>\n", NULL, 0, 0 },
        { "jobs", "<?xml version=\"1.0\"?>\n<feed><item id=\"7\">baker</item>"
                  "<item id=\"8\">pilot</item></feed>\n", NULL, 0, 0 },
    };
    void *buf[2];
    int rc = 0;

    for (int i = 0; i < 2; i++) {
        fs[i].p = XML_ParserCreate(NULL);
        XML_SetHashSalt(fs[i].p, 0x5eed); /* the same hash tables every run */
        XML_SetUserData(fs[i].p, &fs[i]);
        XML_SetStartElementHandler(fs[i].p, on_start);
    }
    /* news: its first chunk arrives and is parsed */
    buf[0] = XML_GetBuffer(fs[0].p, 64);
    if (!buf[0] || feed_chunk(&fs[0], buf[0], 40))
        return 1;
    /* jobs: a buffer is taken for the read that is under way */
    buf[1] = XML_GetBuffer(fs[1].p, 256);
    if (!buf[1])
        return 1;
    pause_all(fs, 2);
    resume_all(fs, 2);
    /* the rest arrives */
    rc |= feed_chunk(&fs[1], buf[1], 256);
    buf[0] = XML_GetBuffer(fs[0].p, 256);
    rc |= !buf[0] || feed_chunk(&fs[0], buf[0], 256);
    for (int i = 0; i < 2; i++) {
        printf("%s: %d items\n", fs[i].name, fs[i].items);
        XML_ParserFree(fs[i].p);
    }
    return rc;
}
