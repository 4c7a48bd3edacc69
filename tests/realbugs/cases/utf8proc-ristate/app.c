/* utf8proc-ristate's application: a chat client's roster lays out 24
 * status labels by user-perceived characters. It splits each label into
 * grapheme clusters with utf8proc (utf8proc_iterate, then
 * utf8proc_grapheme_break_stateful on each pair of code points, as a
 * caller that walks a string itself does) and keeps the clusters; a
 * cluster holding an odd number of regional indicators is half a flag,
 * which the layout would cut in two: exit 1 on the first such label. */
#include <stdio.h>
#include <string.h>
#include "utf8proc.h"

#define MAXC 64

struct layout {
    int nclusters;
    int start[MAXC];    /* byte offset of each cluster */
    int nri[MAXC];      /* regional indicators in it */
};

static void add_cluster(struct layout *l, int at)
{
    if (l->nclusters < MAXC) {
        l->start[l->nclusters] = at;
        l->nri[l->nclusters] = 0;
        l->nclusters++;
    }
}

static int is_ri(utf8proc_int32_t c)
{
    return c >= 0x1F1E6 && c <= 0x1F1FF;
}

/* split S into grapheme clusters; -1 on invalid UTF-8 */
static int split_label(const char *s, struct layout *l)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    utf8proc_ssize_t len = (utf8proc_ssize_t)strlen(s), off = 0;
    utf8proc_int32_t prev = -1, c, state = 0;
    l->nclusters = 0;
    while (off < len) {
        utf8proc_ssize_t n = utf8proc_iterate(p + off, len - off, &c);
        if (n < 0)
            return -1;
        if (prev < 0 || utf8proc_grapheme_break_stateful(prev, c, &state))
            add_cluster(l, (int)off);
        if (is_ri(c) && l->nclusters > 0)
            l->nri[l->nclusters - 1]++;
        prev = c;
        off += n;
    }
    return 0;
}

static const char *labels[] = {
    "online", "away \xE2\x98\x95", "busy", "in a meeting", "on holiday \xF0\x9F\x8F\x96",
    "caf\xC3\xA9", "working from home", "do not disturb", "lunch", "back at 3",
    "travelling", "\xF0\x9F\x87\xB8\xF0\x9F\x87\xAA\xF0\x9F\x87\xAB\xF0\x9F\x87\xAE Nordic team",
    "se\xC3\xB1or", "commuting", "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD sure", "gym", "sick",
    "focus time", "na\xC3\xAFve", "offline", "reading", "\xE0\xA4\x95\xE0\xA5\x8D\xE0\xA4\xB7", "exam",
    "last seen today",
};

int main(void)
{
    struct layout l;
    int total = 0;
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        if (split_label(labels[i], &l) != 0) {
            fprintf(stderr, "label %zu: invalid UTF-8\n", i);
            return 2;
        }
        for (int k = 0; k < l.nclusters; k++) {
            if (l.nri[k] % 2) {
                fprintf(stderr, "label %zu (\"%s\"): cluster %d holds half a flag\n",
                        i, labels[i], k);
                return 1;
            }
        }
        total += l.nclusters;
    }
    printf("%zu labels, %d clusters\n", sizeof labels / sizeof labels[0], total);
    return 0;
}
