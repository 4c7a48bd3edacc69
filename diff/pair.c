/*
 * pair.c - match the threads of the good run with those of the bad run:
 * main with main, then by name and start function, by name alone, by start
 * function alone, and last any two threads with nothing telling them apart,
 * each round in creation order. What is left stays unpaired (and listed).
 */
#include <string.h>

#include "engine_int.h"

static int same(const char *x, const char *y)
{
    return x[0] && strcmp(x, y) == 0;
}

/* Do g and b match under the rule of this round? */
static int fits(const ttd_tinfo *g, const ttd_tinfo *b, int round)
{
    switch (round) {
    case TTD_PAIR_NAME_START:
        return same(g->start, b->start) && strcmp(g->name, b->name) == 0;
    case TTD_PAIR_NAME:
        return same(g->name, b->name);
    case TTD_PAIR_START:
        return same(g->start, b->start);
    default: /* ORDER: no name and no start function that differ */
        return (!g->name[0] || !b->name[0] || !strcmp(g->name, b->name)) &&
               (!g->start[0] || !b->start[0] || !strcmp(g->start, b->start));
    }
}

static void join(ttd_tinfo *g, ttd_tinfo *b, int how)
{
    g->partner = b->index;
    b->partner = g->index;
    g->paired_by = b->paired_by = how;
}

void ttd_pair_threads(ttd_tinfo *g, size_t ng, ttd_tinfo *b, size_t nb)
{
    for (size_t i = 0; i < ng; i++)
        g[i].partner = -1;
    for (size_t i = 0; i < nb; i++)
        b[i].partner = -1;
    if (ng && nb)
        join(&g[0], &b[0], TTD_PAIR_MAIN);
    for (int round = TTD_PAIR_NAME_START; round <= TTD_PAIR_ORDER; round++) {
        for (size_t i = 0; i < ng; i++) {
            if (g[i].partner >= 0)
                continue;
            for (size_t j = 0; j < nb; j++) {
                if (b[j].partner < 0 && fits(&g[i], &b[j], round)) {
                    join(&g[i], &b[j], round);
                    break;
                }
            }
        }
    }
}
