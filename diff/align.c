/*
 * align.c - the sequence aligner of libttdiff: Myers' O(ND) difference
 * algorithm in linear space, with git xdiff's cost cap and discard pass.
 * Input: two arrays of 64-bit event keys; output: the differing hunks.
 * Stage 1 align of diff/STAGES (its header: align.h).
 */

/*
 * Design
 * ------
 * Two runs of a program are two sequences of keys. Aligning them means
 * finding a longest common subsequence (LCS); whatever is not in it is a
 * hunk. E. W. Myers, "An O(ND) Difference Algorithm and Its Variations"
 * (Algorithmica 1, 1986) finds one in O((N+M)D) time, where D is the size
 * of the shortest edit script. Picture the edit graph: a grid whose x axis
 * is a and y axis is b; moving right deletes a[x], down inserts b[y], and
 * a diagonal step is free where a[x] == b[y] (a "snake" is a run of such
 * steps). Paths from the top-left to the bottom-right corner are edit
 * scripts and the cheapest one is the answer. For each cost d the search
 * keeps, per diagonal k = x - y, only the furthest x a d-step path reaches.
 *
 * Linear space (section 4b of the paper): run the search from both corners
 * at once, forward from (0,0) and backward from (N,M). When the two
 * frontiers overlap on some diagonal, the snake where they meet -- the
 * "middle snake" -- lies on an optimal path and splits the problem in two
 * halves of about half the cost each, which are solved recursively. Only
 * two arrays of furthest-reaching x per diagonal are kept, O(N+M) in all,
 * and the result is written as one "changed" flag per element.
 *
 * Cost cap: exact search costs O(ND), quadratic when the runs have little
 * in common (a bad run that crashed early, a shuffled tail). Like git's
 * xdiff, once d passes a limit -- sqrt of the longer side, at least 256 --
 * we stop looking for the exact middle and cut behind the points that got
 * furthest (largest x+y forward, smallest backward). What each frontier
 * explored is known to cost at most d and is solved exactly; the middle
 * goes on under the cap. The script stays valid, just not always shortest,
 * and the time is about O((N+M) * limit). One step beyond xdiff: while the
 * frontiers find fewer than one match per 8 edits (noise, e.g. a shuffled
 * tail) the limit halves for the middle, down to the floor, and it is back
 * to sqrt as soon as matches are dense again; 1M shuffled events take
 * 1.3e9 diagonal steps with a fixed limit, 0.5e9 with this. `minimal`
 * lifts the cap; the diagonal windows are then sized for the whole problem.
 *
 * Before Myers: the common prefix and suffix are trimmed (most of two runs
 * of the same program), and, as xdiff does, elements whose key never occurs
 * on the other side are set aside: no LCS can use them. A bitmap of hashed
 * keys (at most 1 MiB) answers "may occur on the other side"; a false
 * positive only keeps an element in play, so results and minimality do not
 * change. When at least a quarter of the elements go, Myers runs on compact
 * copies of the rest (key + position); a crashed bad run against a long good
 * run then collapses to a trivial problem. Otherwise the pass costs two
 * cache-resident scans and Myers runs on the caller's arrays.
 *
 * Output: each solved leaf box (one side empty) is an edit; they are sorted
 * along the path, the matched runs between them mapped back to the caller's
 * positions, and the hunks are the gaps between matched runs.
 *
 * Memory, beyond the output: the edit list (16 bytes per edit run), the
 * windows (2 * (2*limit + 5) ints capped, 2 * (N+M+3) with `minimal`), the
 * two bitmaps, and the compact copies when used (12 bytes per kept element,
 * kept <= 3/4 of all). Sparse differences need next to nothing. Recursion
 * goes into the smaller half and loops on the larger, so the stack depth is
 * O(log(N+M)). Everything is deterministic.
 */

#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "ttf_util.h"

#define COST_FLOOR 256          /* smallest cost cap, as in xdiff */
#define MAX_SIDE (1u << 29)     /* longest middle part we align (int32 math) */
#define SPARSE 8                /* edits per match below which the cap halves */
#define FWD_NONE (-1)           /* forward window: diagonal not reached */
#define BWD_NONE INT32_MAX      /* backward window: diagonal not reached */

/* The problem as Myers sees it, shared by every recursion level. */
typedef struct ctx {
    const uint64_t *a, *b;      /* sequences being aligned */
    int32_t *vf, *vb;           /* furthest x per diagonal, fwd / bwd */
    int32_t vlen;               /* entries in each of vf and vb */
    int32_t cap;                /* cost cap; INT32_MAX = exact */
    struct box *ed;             /* edits found: boxes with an empty side */
    size_t ned, ed_cap;         /* used and allocated entries of ed */
    int nomem;                  /* an allocation failed: stop, report it */
} ctx;

/* A sub-problem a[x0..x1) against b[y0..y1); also an edit (one side empty). */
typedef struct box {
    int32_t x0, x1;             /* range in a */
    int32_t y0, y1;             /* range in b */
} box;

/* Hunks being built from the matched runs, which arrive in order. */
typedef struct hunks {
    ttdi_hunk *h;               /* the array handed out */
    size_t n, cap;              /* used and allocated entries */
    size_t ax, by;              /* end of the last match in a and in b */
    int nomem;                  /* an allocation failed */
} hunks;

/* How to cut a box: into lo = [x0..lx) x [y0..ly), mid = [lx..hx) x
 * [ly..hy) and hi = [hx..x1) x [hy..y1). An exact middle snake gives one
 * point (mid empty); the cost cap gives up to two, with lo and hi known to
 * cost at most the cap and mid still to be searched under it. */
typedef struct split {
    int32_t lx, ly;             /* end of lo, start of mid */
    int32_t hx, hy;             /* end of mid, start of hi */
    int capped;                 /* 1: the cap cut it (mid goes on capped) */
    int sparse;                 /* capped, under 1 match per SPARSE edits */
} split;

/* State of one middle-snake search over a box. */
typedef struct search {
    const ctx *c;               /* sequences and windows */
    box bx;                     /* the box searched */
    int32_t kmin, kmax;         /* diagonals that cross the box */
    int32_t fmin, fmax;         /* live forward diagonals */
    int32_t bmin, bmax;         /* live backward diagonals */
    int32_t fbase, bbase;       /* diagonal stored at index 0 of vf / vb */
    int32_t room;               /* largest d the windows hold */
    int odd;                    /* delta odd: overlap checked going forward */
} search;

static inline int32_t *fv(const search *s, int32_t k)
{
    return &s->c->vf[k - s->fbase];
}

static inline int32_t *bv(const search *s, int32_t k)
{
    return &s->c->vb[k - s->bbase];
}

/* Follow a snake forward from (x, y); returns the x where it ends. */
static int32_t slide_fwd(const search *s, int32_t x, int32_t y)
{
    const uint64_t *a = s->c->a, *b = s->c->b;
    int32_t x1 = s->bx.x1, y1 = s->bx.y1;

    while (x < x1 && y < y1 && a[x] == b[y]) {
        x++;
        y++;
    }
    return x;
}

/* Follow a snake backward to (x, y); returns the x where it starts. */
static int32_t slide_bwd(const search *s, int32_t x, int32_t y)
{
    const uint64_t *a = s->c->a, *b = s->c->b;
    int32_t x0 = s->bx.x0, y0 = s->bx.y0;

    while (x > x0 && y > y0 && a[x - 1] == b[y - 1]) {
        x--;
        y--;
    }
    return x;
}

/* Set up the windows: a box that fits is indexed from its lowest diagonal,
 * a larger one (only under the cap) around each corner's diagonal. */
static void search_init(search *s, const ctx *c, const box *bx)
{
    int32_t fmid = bx->x0 - bx->y0, bmid = bx->x1 - bx->y1;
    int32_t half = (c->vlen - 1) / 2;

    s->c = c;
    s->bx = *bx;
    s->kmin = bx->x0 - bx->y1;
    s->kmax = bx->x1 - bx->y0;
    s->fmin = s->fmax = fmid;
    s->bmin = s->bmax = bmid;
    s->odd = (bmid - fmid) & 1;
    s->fbase = s->bbase = s->kmin - 1;
    s->room = INT32_MAX;
    if (s->kmax - s->kmin + 3 > c->vlen) {
        s->fbase = fmid - half;
        s->bbase = bmid - half;
        s->room = half - 1;
    }
    *fv(s, fmid) = slide_fwd(s, bx->x0, bx->y0);
    *bv(s, bmid) = slide_bwd(s, bx->x1, bx->y1);
}

/* Widen a live range of diagonals by one step, staying inside the box (at
 * an edge the range moves in by one instead, keeping the parity). */
static void widen(int32_t *lo, int32_t *hi, int32_t kmin, int32_t kmax)
{
    *lo = *lo > kmin ? *lo - 1 : *lo + 1;
    *hi = *hi < kmax ? *hi + 1 : *hi - 1;
}

/* An exact cut at (x, y): the middle snake was found. */
static int cut_at(split *sp, int32_t x, int32_t y)
{
    sp->lx = sp->hx = x;
    sp->ly = sp->hy = y;
    sp->capped = sp->sparse = 0;
    return 1;
}

/* One forward step at cost d. Returns 1 with *sp set on an overlap. The
 * hot loop: everything it reads is copied to locals first. */
static int step_fwd(search *s, split *sp)
{
    const uint64_t *a = s->c->a, *b = s->c->b;
    int32_t *vf = s->c->vf, *vb = s->c->vb;
    int32_t fb = s->fbase, bb = s->bbase, x1 = s->bx.x1, y1 = s->bx.y1;
    int32_t bmin = s->odd ? s->bmin : INT32_MAX, bmax = s->bmax, k;

    widen(&s->fmin, &s->fmax, s->kmin, s->kmax);
    vf[s->fmin - 1 - fb] = FWD_NONE;
    vf[s->fmax + 1 - fb] = FWD_NONE;
    for (k = s->fmax; k >= s->fmin; k -= 2) {
        int32_t lo = vf[k - 1 - fb], hi = vf[k + 1 - fb];
        int32_t x = lo >= hi ? lo + 1 : hi, y = x - k;

        while (x < x1 && y < y1 && a[x] == b[y]) {
            x++;
            y++;
        }
        vf[k - fb] = x;
        if (k >= bmin && k <= bmax && vb[k - bb] <= x)
            return cut_at(sp, x, y);
    }
    return 0;
}

/* One backward step at cost d. Returns 1 with *sp set on an overlap. */
static int step_bwd(search *s, split *sp)
{
    const uint64_t *a = s->c->a, *b = s->c->b;
    int32_t *vf = s->c->vf, *vb = s->c->vb;
    int32_t fb = s->fbase, bb = s->bbase, x0 = s->bx.x0, y0 = s->bx.y0;
    int32_t fmin = s->odd ? INT32_MAX : s->fmin, fmax = s->fmax, k;

    widen(&s->bmin, &s->bmax, s->kmin, s->kmax);
    vb[s->bmin - 1 - bb] = BWD_NONE;
    vb[s->bmax + 1 - bb] = BWD_NONE;
    for (k = s->bmax; k >= s->bmin; k -= 2) {
        int32_t lo = vb[k - 1 - bb], hi = vb[k + 1 - bb];
        int32_t x = lo < hi ? lo : hi - 1, y = x - k;

        while (x > x0 && y > y0 && a[x - 1] == b[y - 1]) {
            x--;
            y--;
        }
        vb[k - bb] = x;
        if (k >= fmin && k <= fmax && vf[k - fb] >= x)
            return cut_at(sp, x, y);
    }
    return 0;
}

/* The forward frontier point with the largest x+y. Points that stepped
 * past an edge (a frontier x may) are skipped: every point kept is reached
 * at cost <= d. Returns x+y - (x0+y0), or -1 if there is none. */
static int64_t best_fwd(const search *s, int32_t *bx, int32_t *by)
{
    int64_t best = -1;
    int32_t k;

    for (k = s->fmax; k >= s->fmin; k -= 2) {
        int32_t x = *fv(s, k), y = x - k;
        int64_t p = (int64_t)x + y - s->bx.x0 - s->bx.y0;

        if (x > s->bx.x1 || y > s->bx.y1 || p <= best)
            continue;
        best = p;
        *bx = x;
        *by = y;
    }
    return best;
}

/* The backward frontier point with the smallest x+y, likewise. Returns
 * (x1+y1) - (x+y), or -1. */
static int64_t best_bwd(const search *s, int32_t *bx, int32_t *by)
{
    int64_t best = -1;
    int32_t k;

    for (k = s->bmax; k >= s->bmin; k -= 2) {
        int32_t x = *bv(s, k), y = x - k;
        int64_t p = (int64_t)s->bx.x1 + s->bx.y1 - x - y;

        if (x < s->bx.x0 || y < s->bx.y0 || p <= best)
            continue;
        best = p;
        *bx = x;
        *by = y;
    }
    return best;
}

/* Over the cap at cost d: cut behind both frontiers when they have not
 * crossed (what they explored costs at most d and is solved exactly), else
 * behind the one that got further. A d-step frontier that gained x+y = p
 * took (p - d) / 2 matches: "sparse" when that is under 1 per SPARSE. */
static void give_up(const search *s, int32_t d, split *sp)
{
    int32_t fx = 0, fy = 0, bx = 0, by = 0;
    int64_t f = best_fwd(s, &fx, &fy), b = best_bwd(s, &bx, &by);

    if (f < 0 && b < 0) { /* not seen; halve the box so it still ends */
        cut_at(sp, s->bx.x0 + (s->bx.x1 - s->bx.x0 + 1) / 2,
               s->bx.y0 + (s->bx.y1 - s->bx.y0) / 2);
        return;
    }
    if (f >= 0 && b >= 0 && fx <= bx && fy <= by)
        *sp = (split){ fx, fy, bx, by, 1, (f + b - 2 * d) * SPARSE < 4 * d };
    else if (f >= b)
        *sp = (split){ fx, fy, s->bx.x1, s->bx.y1, 1,
                       (f - d) * SPARSE < 2 * d };
    else
        *sp = (split){ s->bx.x0, s->bx.y0, bx, by, 1,
                       (b - d) * SPARSE < 2 * d };
}

/* Find where to cut a box whose both sides are non-empty and whose first
 * and last elements differ. */
static void find_split(const ctx *c, const box *bx, int32_t cap, split *sp)
{
    search s;
    int32_t d;

    search_init(&s, c, bx);
    for (d = 1;; d++) {
        if (step_fwd(&s, sp) || step_bwd(&s, sp))
            return;
        if (d >= cap || d >= s.room) {
            give_up(&s, d, sp);
            return;
        }
    }
}

/* Drop the matching ends of a box. */
static void trim_box(const ctx *c, box *bx)
{
    while (bx->x0 < bx->x1 && bx->y0 < bx->y1 && c->a[bx->x0] == c->b[bx->y0]) {
        bx->x0++;
        bx->y0++;
    }
    while (bx->x0 < bx->x1 && bx->y0 < bx->y1 &&
           c->a[bx->x1 - 1] == c->b[bx->y1 - 1]) {
        bx->x1--;
        bx->y1--;
    }
}

/* Record a box with an empty side: everything left in it is an edit. */
static void add_edit(ctx *c, const box *bx)
{
    if (bx->x0 == bx->x1 && bx->y0 == bx->y1)
        return;
    if (c->ned == c->ed_cap && ttdi_grow(&c->ed, &c->ed_cap, c->ned + 1, sizeof *c->ed, 64) < 0) {
        c->nomem = 1;
        return;
    }
    c->ed[c->ned++] = *bx;
}

static int64_t box_size(const box *bx)
{
    return (int64_t)bx->x1 - bx->x0 + bx->y1 - bx->y0;
}

/* Solve a box under a cost cap (INT32_MAX: exact). After an exact cut,
 * recurse into the smaller half and loop on the larger, so the stack stays
 * O(log n) deep; after a capped cut, solve the explored ends exactly and
 * loop on the middle, with half the cap (down to the floor) while the
 * search finds almost nothing to match, the full cap again once it does. */
static void solve(ctx *c, box bx, int32_t cap)
{
    while (!c->nomem) {
        box lo, mid, hi;
        split sp = { 0 };

        trim_box(c, &bx);
        if (bx.x0 == bx.x1 || bx.y0 == bx.y1) {
            add_edit(c, &bx);
            return;
        }
        find_split(c, &bx, cap, &sp);
        lo = (box){ bx.x0, sp.lx, bx.y0, sp.ly };
        mid = (box){ sp.lx, sp.hx, sp.ly, sp.hy };
        hi = (box){ sp.hx, bx.x1, sp.hy, bx.y1 };
        if (sp.capped) {
            solve(c, lo, INT32_MAX);
            solve(c, hi, INT32_MAX);
            bx = mid;
            cap = sp.sparse ? (cap / 2 > COST_FLOOR ? cap / 2 : COST_FLOOR)
                            : c->cap;
        } else if (box_size(&lo) <= box_size(&hi)) {
            solve(c, lo, INT32_MAX);
            bx = hi;
        } else {
            solve(c, hi, INT32_MAX);
            bx = lo;
        }
    }
}

static int32_t isqrt(int64_t v)
{
    int64_t r = 0, step;

    for (step = (int64_t)1 << 31; step > 0; step >>= 1) {
        if ((r + step) * (r + step) <= v)
            r += step;
    }
    return (int32_t)r;
}

/* The cost cap for sequences of up to n elements: sqrt(n), at least
 * COST_FLOOR. (xdiff takes the root of n+m; that of the longer side is 30%
 * less work on hopeless inputs, and the same below 65536 elements.) */
static int32_t cost_cap(int32_t n)
{
    int32_t r = isqrt(n);

    return r > COST_FLOOR ? r : COST_FLOOR;
}

static int cmp_edit(const void *p, const void *q)
{
    const box *e = p, *f = q;

    if (e->x0 != f->x0)
        return e->x0 < f->x0 ? -1 : 1;
    return (e->y0 > f->y0) - (e->y0 < f->y0);
}

/* Run Myers over a[0..n) and b[0..m); on success c->ed holds the edits in
 * path order (the caller frees it). */
static int myers(ctx *c, const uint64_t *a, int32_t n, const uint64_t *b,
                 int32_t m, int minimal)
{
    int64_t full = (int64_t)n + m + 3;

    *c = (ctx){ .a = a, .b = b, .cap = INT32_MAX, .vlen = (int32_t)full };
    if (!minimal)
        c->cap = cost_cap(n > m ? n : m);
    if (!minimal && 2 * (int64_t)c->cap + 5 < full)
        c->vlen = 2 * c->cap + 5;
    c->vf = malloc((size_t)c->vlen * sizeof *c->vf);
    c->vb = malloc((size_t)c->vlen * sizeof *c->vb);
    c->nomem = !c->vf || !c->vb;
    solve(c, (box){ 0, n, 0, m }, c->cap);
    free(c->vf);
    free(c->vb);
    c->vf = c->vb = NULL;
    if (c->nomem)
        return TT_ENOMEM;
    if (c->ned > 1)
        qsort(c->ed, c->ned, sizeof *c->ed, cmp_edit);
    return 0;
}

/* ---- hunks from matched runs ---------------------------------------- */

static void push_hunk(hunks *hs, ttdi_hunk h)
{
    if (hs->n == hs->cap && ttdi_grow(&hs->h, &hs->cap, hs->n + 1, sizeof *hs->h, 16) < 0) {
        hs->nomem = 1;
        return;
    }
    hs->h[hs->n++] = h;
}

/* a[ax..x) and b[by..y) are not matched: a hunk unless both are empty. */
static void gap_to(hunks *hs, size_t x, size_t y)
{
    if (x > hs->ax || y > hs->by)
        push_hunk(hs, (ttdi_hunk){ hs->ax, x, hs->by, y });
}

/* a[x..x+len) matches b[y..y+len); runs arrive in ascending order. */
static void on_match(hunks *hs, size_t x, size_t y, size_t len)
{
    if (len == 0)
        return;
    gap_to(hs, x, y);
    hs->ax = x + len;
    hs->by = y + len;
}

/* Report the matched runs between the sorted edits of c, mapping Myers'
 * positions through ia / ib (NULL: plus off) to the caller's. */
static void runs_between(hunks *hs, const ctx *c, int32_t n,
                         const int32_t *ia, const int32_t *ib, size_t off)
{
    int32_t x = 0, y = 0, i, k;

    for (k = 0; k <= (int32_t)c->ned; k++) {
        int32_t ex = k < (int32_t)c->ned ? c->ed[k].x0 : n;

        if (!ia)
            on_match(hs, off + x, off + y, (size_t)(ex - x));
        for (i = 0; ia && i < ex - x; i++)
            on_match(hs, off + ia[x + i], off + ib[y + i], 1);
        if (k < (int32_t)c->ned) {
            x = c->ed[k].x1;
            y = c->ed[k].y1;
        }
    }
}

/* ---- discard pass ---------------------------------------------------- */

static size_t count_in(const ttdi_keybits *map, const uint64_t *x, size_t n)
{
    size_t i, kept = 0;

    for (i = 0; i < n; i++)
        kept += (size_t)ttdi_keybits_has(map, x[i]);
    return kept;
}

/* The elements of x that may occur on the other side: keys and positions. */
static void keep(const ttdi_keybits *map, const uint64_t *x, size_t n, uint64_t *kx,
                 int32_t *ix)
{
    size_t i, j = 0;

    for (i = 0; i < n; i++) {
        if (!ttdi_keybits_has(map, x[i]))
            continue;
        kx[j] = x[i];
        ix[j++] = (int32_t)i;
    }
}

/* The compact problem: the kept elements of both sides. */
typedef struct kept {
    uint64_t *ka, *kb;          /* kept keys */
    int32_t *ia, *ib;           /* their positions in the middle parts */
    size_t n, m;                /* how many on each side */
} kept;

static void kept_free(kept *k)
{
    free(k->ka);
    free(k->kb);
    free(k->ia);
    free(k->ib);
}

/* Myers over the kept elements; matches mapped back to the middle parts. */
static int align_kept(kept *k, int minimal, size_t off, hunks *hs)
{
    ctx c;
    int rc = myers(&c, k->ka, (int32_t)k->n, k->kb, (int32_t)k->m, minimal);

    if (rc == 0)
        runs_between(hs, &c, (int32_t)k->n, k->ia, k->ib, off);
    free(c.ed);
    return rc;
}

/* Align the middle parts a[0..n), b[0..m) (both non-empty) at offset off.
 * Discard pass first: when at least a quarter of the elements cannot
 * match (their key is not on the other side), run Myers on the rest. */
static int align_middle(const uint64_t *a, size_t n, const uint64_t *b,
                        size_t m, int minimal, size_t off, hunks *hs)
{
    int bits = 6, rc = TT_ENOMEM;
    ttdi_keybits ma = {NULL, 0}, mb = {NULL, 0};
    kept k = { 0 };
    ctx c;

    while (bits < 23 && ((size_t)1 << bits) < 8 * (n > m ? n : m))
        bits++;
    if (ttdi_keybits_fill(&ma, bits, a, n) < 0 || ttdi_keybits_fill(&mb, bits, b, m) < 0)
        goto out;
    k.n = count_in(&mb, a, n);
    k.m = count_in(&ma, b, m);
    if ((n - k.n + m - k.m) * 4 < n + m) {
        rc = myers(&c, a, (int32_t)n, b, (int32_t)m, minimal);
        if (rc == 0)
            runs_between(hs, &c, (int32_t)n, NULL, NULL, off);
        free(c.ed);
        goto out;
    }
    k.ka = malloc((k.n + 1) * sizeof *k.ka);
    k.kb = malloc((k.m + 1) * sizeof *k.kb);
    k.ia = malloc((k.n + 1) * sizeof *k.ia);
    k.ib = malloc((k.m + 1) * sizeof *k.ib);
    if (!k.ka || !k.kb || !k.ia || !k.ib)
        goto out;
    keep(&mb, a, n, k.ka, k.ia);
    keep(&ma, b, m, k.kb, k.ib);
    ttdi_keybits_free(&ma);
    ttdi_keybits_free(&mb);
    rc = align_kept(&k, minimal, off, hs);
out:
    kept_free(&k);
    ttdi_keybits_free(&ma);
    ttdi_keybits_free(&mb);
    return rc;
}

int ttdi_align(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
               int minimal, ttdi_hunk **out, size_t *nout)
{
    hunks hs = { 0 };
    size_t pre = 0, n, m;
    int rc = 0;

    *out = NULL;
    *nout = 0;
    while (pre < na && pre < nb && a[pre] == b[pre])
        pre++;
    n = na - pre;
    m = nb - pre;
    while (n > 0 && m > 0 && a[pre + n - 1] == b[pre + m - 1]) {
        n--;
        m--;
    }
    if (n >= MAX_SIDE || m >= MAX_SIDE)
        return TT_ENOMEM;
    on_match(&hs, 0, 0, pre);
    if (n > 0 && m > 0)
        rc = align_middle(a + pre, n, b + pre, m, minimal, pre, &hs);
    gap_to(&hs, pre + n, pre + m);
    if (rc == 0 && hs.nomem)
        rc = TT_ENOMEM;
    if (rc != 0) {
        free(hs.h);
        return rc;
    }
    *out = hs.h;
    *nout = hs.n;
    return 0;
}
