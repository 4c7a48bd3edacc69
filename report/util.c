/*
 * util.c - helpers shared by the renderers: call-tree levels for
 * indentation (see ttr_int.h); UTF-8 validation is ttf_utf8_len.
 * Stage 0 base of report/STAGES.
 */
#include "ttr_int.h"

#include <stdio.h>
#include <string.h>

#include "ttfmt.h"

int ttri_level(const ttd_event *e)
{
    int d = e->depth < -TTRI_LEVEL_CAP ? -TTRI_LEVEL_CAP
            : e->depth > TTRI_LEVEL_CAP ? TTRI_LEVEL_CAP : e->depth;

    return e->kind == TTF_EV_EXIT ? d - 1 : d;
}

int ttri_min_level(const ttd_event *ev, size_t n, int base)
{
    for (size_t i = 0; i < n; i++)
        base = ttri_level(&ev[i]) < base ? ttri_level(&ev[i]) : base;
    return base;
}

const char *ttri_call_suffix(const char *name, int leaf)
{
    int has_params = name && strchr(name, '(') != NULL;
    if (leaf)
        return has_params ? ";" : "();";
    return has_params ? " {" : "() {";
}

void ttri_paired_by(const ttd_pair *p, char *buf, size_t n)
{
    if (p->paired_by != TTD_PAIR_CONTENT) {
        snprintf(buf, n, "%s", ttd_paired_by_name(p->paired_by));
        return;
    }
    snprintf(buf, n, "content %.2f%s", p->similarity, p->uncertain ? "?" : "");
}

int ttri_folds(const ttd_event *ev, size_t n, size_t i)
{
    return ev[i].kind == TTF_EV_ENTER && i + 1 < n &&
           ev[i + 1].kind == TTF_EV_EXIT && ev[i].name && ev[i + 1].name &&
           strcmp(ev[i].name, ev[i + 1].name) == 0;
}

size_t ttri_tree_lines(const ttd_event *ev, size_t n)
{
    size_t lines = 0;
    for (size_t i = 0; i < n; i++, lines++)
        i += (size_t)ttri_folds(ev, n, i);
    return lines;
}

int ttri_bad_stopped_early(const ttd_result *r)
{
    const ttd_run_info *g = &r->runs[TTD_GOOD], *b = &r->runs[TTD_BAD];
    if (b->crash || !b->closed)
        return 1;
    return g->closed && !g->crash && b->exit_status != g->exit_status;
}

int ttri_headline(const ttd_result *r)
{
    if (r->first)
        return TTRI_HL_SPLIT;
    if (r->nchain && r->chain[r->nchain - 1].kind == TTD_CAUSE_EXIT)
        return TTRI_HL_ENDED;
    if (!r->value_first && r->outcome.failed)
        return TTRI_HL_FAILED;
    return r->value_first ? TTRI_HL_VALUE : TTRI_HL_SAME;
}

char *ttri_build_id_hex(const ttd_run_info *r, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; r->build_id && i < r->build_id_len && o + 3 <= len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%02x", r->build_id[i]);
    return buf;
}

size_t ttri_system_run(const ttd_frame *fr, size_t i, size_t n)
{
    size_t k = i;
    while (k + 1 < n && ttf_system_file(fr[k].file))
        k++;
    return k - i >= 2 ? k : i;
}
