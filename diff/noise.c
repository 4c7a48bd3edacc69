/*
 * noise.c - hints that a divergence may be noise rather than the failure:
 * other good runs lying beside the good trace (same name with other
 * numbers, as ttrec keeps them) that were not given as --baseline, and a
 * first divergence whose differing calls poll or sleep (a wait loop that
 * ran a different number of times). Both only suggest --baseline.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resolve.h"

#define MAX_SIBLINGS 8  /* sibling traces listed at most */

/* name with every run of digits replaced by one '#'; 1 if it had digits */
static int skeleton(const char *name, char *out, size_t n)
{
    size_t k = 0;
    int digits = 0;

    for (const char *p = name; *p && k + 1 < n; p++) {
        if (*p < '0' || *p > '9') {
            out[k++] = *p;
            continue;
        }
        digits = 1;
        out[k++] = '#';
        while (p[1] >= '0' && p[1] <= '9')
            p++;
    }
    out[k] = '\0';
    return digits;
}

/* Split path into its folder ("." if none) and base name. */
static void split(const char *path, char *dir, size_t n, const char **base)
{
    const char *slash = strrchr(path, '/');

    *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, n, ".");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path ? slash - path : 1), path);
}

static int str_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int same_file(const char *dir, const char *name, const char *path)
{
    const char *base;
    char d2[4096];

    split(path, d2, sizeof d2, &base);
    return strcmp(base, name) == 0 && strcmp(d2, dir) == 0;
}

int ttdi_siblings(struct ttfi_arena *a, const char *good, const char *bad,
                  const char ***out, size_t *nout)
{
    char dir[4096], want[256], sk[256];
    const char *base;
    const char **v = ttfi_arena_zalloc(a, (MAX_SIBLINGS + 1) * sizeof *v);
    size_t n = 0;

    *out = v;
    *nout = 0;
    if (!v)
        return TT_ENOMEM;
    split(good, dir, sizeof dir, &base);
    if (!skeleton(base, want, sizeof want))
        return 0;
    char table[4200];          /* a recorded tree: the others are other processes */
    snprintf(table, sizeof table, "%s/%s", dir, TTF_PTABLE_NAME);
    if (access(table, F_OK) == 0)
        return 0;
    DIR *dp = opendir(dir);
    struct dirent *de;
    while (dp && n < MAX_SIBLINGS && (de = readdir(dp))) {
        if (!skeleton(de->d_name, sk, sizeof sk) || strcmp(sk, want) ||
            strcmp(de->d_name, base) == 0 || same_file(dir, de->d_name, bad))
            continue;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *p = ttfi_arena_zalloc(a, len);
        if (!p)
            break;
        snprintf(p, len, "%s/%s", dir, de->d_name);
        v[n++] = p;
    }
    if (dp)
        closedir(dp);
    qsort(v, n, sizeof *v, str_cmp);
    *nout = n;
    return 0;
}

static int among(const char *name, const ttd_event *ev, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ev[i].name && strcmp(ev[i].name, name) == 0)
            return 1;
    return 0;
}

/* Add name to the comma list in buf (once). */
static void add_name(char *buf, size_t n, const char *name)
{
    size_t len = strlen(buf), k = strlen(name);
    const char *p = buf;

    while ((p = strstr(p, name))) {
        if ((p == buf || (p - buf >= 2 && p[-2] == ',')) && (p[k] == '\0' || p[k] == ','))
            return;
        p += k;
    }
    if (len + k + 3 < n)
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", name);
}

/* Does call ev[i] return at once (a loop's condition, as
 * numReadsInFlight() in zstd's wait for a read)? */
static int leaf(const ttd_event *ev, size_t n, size_t i)
{
    return i + 1 < n && ev[i + 1].kind == TTF_EV_EXIT && ev[i + 1].name &&
           strcmp(ev[i + 1].name, ev[i].name) == 0;
}

/* 1 if every call in ev[0..n) waits, repeats a call of the common events
 * before the split, or returns at once beside a call that waits on this
 * side; one at least waits (*waited); names in buf. */
static int waiting_side(const ttd_divergence *dv, const ttd_event *ev, size_t n,
                        char *buf, size_t len, int *waited)
{
    int here = 0, leaves = 0;

    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind != TTF_EV_ENTER || !ev[i].name)
            continue;
        if (ttdi_waits_name(ev[i].name)) {
            here = *waited = 1;
            add_name(buf, len, ev[i].name);
        } else if (!among(ev[i].name, dv->before, dv->nbefore)) {
            if (!leaf(ev, n, i))
                return 0;
            leaves = 1;
        }
    }
    return here || !leaves;
}

int ttdi_noise_of(struct ttfi_arena *a, ttd_divergence *dv)
{
    char buf[256] = "";
    int waited = 0;

    if (dv->crash || !waiting_side(dv, dv->good, dv->ngood, buf, sizeof buf, &waited) ||
        !waiting_side(dv, dv->bad, dv->nbad, buf, sizeof buf, &waited) || !waited)
        return 0;
    dv->noise = TTD_NOISE_WAIT;
    dv->noise_calls = ttfi_arena_strcpy(a, buf);
    return dv->noise_calls ? 0 : TT_ENOMEM;
}
