/*
 * align.c - the sequence aligner of libttdiff: Myers' O(ND) difference
 * algorithm in linear space, with git xdiff's cost cap and discard pass.
 * Input: two arrays of 64-bit event keys; output: the differing hunks.
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
 * xdiff, once d passes a limit -- about sqrt(N+M), at least 256 -- we stop
 * looking for the exact middle and split at the point that got furthest
 * (largest x+y forward, smallest backward). The part behind that point is
 * known to cost at most d and is solved exactly; the rest goes on with the
 * cap. The script stays valid, just not always shortest, and the time is
 * about O((N+M) * limit). `minimal` lifts the cap; with it, the diagonal
 * windows are sized for the whole problem (8 bytes per element).
 *
 * Before Myers: the common prefix and suffix are trimmed (most of two runs
 * of the same program), and, as xdiff does, elements whose key never occurs
 * on the other side are marked changed at once: no LCS can use them. A
 * bitmap of hashed keys answers "may occur on the other side" (false
 * positives only keep an element in play, so the result is unchanged and
 * minimality holds). When that removes at least a quarter of the elements,
 * the rest are copied into compact arrays for Myers; a crashed bad run
 * against a long good run then collapses to a trivial problem.
 *
 * Memory, beyond the output: one flag byte per element between the trimmed
 * ends, a bitmap of one byte per element of the longer side, the compact
 * copies (at most 9 bytes per kept element, kept <= 3/4), and the two
 * diagonal windows: 2 * (2*limit + 5) ints capped, 2 * (N+M+3) minimal.
 * Recursion goes into the smaller half and loops on the larger, so the
 * stack depth is O(log(N+M)). Everything is deterministic.
 */

#include <stdlib.h>
#include <string.h>

#include "align.h"

#define COST_FLOOR 256          /* smallest cost cap, as in xdiff */
#define MAX_SIDE (1u << 29)     /* longest middle part we align (int32 math) */
#define FWD_NONE (-1)           /* forward window: diagonal not reached */
#define BWD_NONE INT32_MAX      /* backward window: diagonal not reached */

/* The problem as Myers sees it, shared by every recursion level. */
typedef struct ctx {
    const uint64_t *a, *b;      /* sequences being aligned */
    uint8_t *ca, *cb;           /* per element: 1 = not in the common part */
    int32_t *vf, *vb;           /* furthest x per diagonal, fwd / bwd */
    int32_t vlen;               /* entries in each of vf and vb */
    int32_t cap;                /* cost cap; INT32_MAX = exact */
} ctx;

/* A sub-problem: a[x0..x1) against b[y0..y1). */
typedef struct box {
    int32_t x0, x1;             /* range in a */
    int32_t y0, y1;             /* range in b */
} box;

/* Where to cut a box, and whether each half must be solved exactly. */
typedef struct split {
    int32_t x, y;               /* the cut point */
    int min_lo, min_hi;         /* 1: solve that half without the cap */
} split;

/* State of one middle-snake search over a box. */
typedef struct search {
    const ctx *c;               /* sequences and windows */
    box bx;                     /* the box searched */
    int32_t kmin, kmax;         /* diagonals that cross the box */
    int32_t fmin, fmax;         /* live forward diagonals */
    int32_t bmin, bmax;         /* live backward diagonals */
    int32_t fbase, bbase;       /* diagonal stored at index 0 of vf / vb */
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
    if (s->kmax - s->kmin + 3 > c->vlen) {
        s->fbase = fmid - half;
        s->bbase = bmid - half;
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

/* One forward step at cost d. Returns 1 with *sp set on an overlap. */
static int step_fwd(search *s, split *sp)
{
    int32_t k, x;

    widen(&s->fmin, &s->fmax, s->kmin, s->kmax);
    *fv(s, s->fmin - 1) = FWD_NONE;
    *fv(s, s->fmax + 1) = FWD_NONE;
    for (k = s->fmax; k >= s->fmin; k -= 2) {
        int32_t lo = *fv(s, k - 1), hi = *fv(s, k + 1);

        x = lo >= hi ? lo + 1 : hi;
        x = slide_fwd(s, x, x - k);
        *fv(s, k) = x;
        if (!s->odd || k < s->bmin || k > s->bmax || *bv(s, k) > x)
            continue;
        sp->x = x;
        sp->y = x - k;
        sp->min_lo = sp->min_hi = 1;
        return 1;
    }
    return 0;
}

/* One backward step at cost d. Returns 1 with *sp set on an overlap. */
static int step_bwd(search *s, split *sp)
{
    int32_t k, x;

    widen(&s->bmin, &s->bmax, s->kmin, s->kmax);
    *bv(s, s->bmin - 1) = BWD_NONE;
    *bv(s, s->bmax + 1) = BWD_NONE;
    for (k = s->bmax; k >= s->bmin; k -= 2) {
        int32_t lo = *bv(s, k - 1), hi = *bv(s, k + 1);

        x = lo < hi ? lo : hi - 1;
        x = slide_bwd(s, x, x - k);
        *bv(s, k) = x;
        if (s->odd || k < s->fmin || k > s->fmax || *fv(s, k) < x)
            continue;
        sp->x = x;
        sp->y = x - k;
        sp->min_lo = sp->min_hi = 1;
        return 1;
    }
    return 0;
}

/* The forward frontier point with the largest x+y, clipped to the box
 * (a frontier x may step one past an edge). Returns x+y - (x0+y0). */
static int64_t best_fwd(const search *s, int32_t *bx, int32_t *by)
{
    int64_t best = -1;
    int32_t k;

    for (k = s->fmax; k >= s->fmin; k -= 2) {
        int32_t x = *fv(s, k) < s->bx.x1 ? *fv(s, k) : s->bx.x1;
        int32_t y = x - k;

        if (y > s->bx.y1) {
            y = s->bx.y1;
            x = y + k;
        }
        if ((int64_t)x + y - s->bx.x0 - s->bx.y0 <= best)
            continue;
        best = (int64_t)x + y - s->bx.x0 - s->bx.y0;
        *bx = x;
        *by = y;
    }
    return best;
}

/* The backward frontier point with the smallest x+y, clipped to the box.
 * Returns (x1+y1) - (x+y). */
static int64_t best_bwd(const search *s, int32_t *bx, int32_t *by)
{
    int64_t best = -1;
    int32_t k;

    for (k = s->bmax; k >= s->bmin; k -= 2) {
        int32_t x = *bv(s, k) > s->bx.x0 ? *bv(s, k) : s->bx.x0;
        int32_t y = x - k;

        if (y < s->bx.y0) {
            y = s->bx.y0;
            x = y + k;
        }
        if ((int64_t)s->bx.x1 + s->bx.y1 - x - y <= best)
            continue;
        best = (int64_t)s->bx.x1 + s->bx.y1 - x - y;
        *bx = x;
        *by = y;
    }
    return best;
}

/* Over the cap: cut at whichever frontier got further. The side it has
 * explored costs at most the cap and is solved exactly. */
static void give_up(const search *s, split *sp)
{
    int32_t fx = 0, fy = 0, bx = 0, by = 0;
    int64_t f = best_fwd(s, &fx, &fy), b = best_bwd(s, &bx, &by);

    if (f >= b) {
        sp->x = fx;
        sp->y = fy;
        sp->min_lo = 1;
        sp->min_hi = 0;
        return;
    }
    sp->x = bx;
    sp->y = by;
    sp->min_lo = 0;
    sp->min_hi = 1;
}

/* Find where to cut a box whose both sides are non-empty and whose first
 * and last elements differ. */
static void find_split(const ctx *c, const box *bx, int need_min, split *sp)
{
    search s;
    int32_t d;

    search_init(&s, c, bx);
    for (d = 1;; d++) {
        if (step_fwd(&s, sp) || step_bwd(&s, sp))
            return;
        if (!need_min && d >= c->cap) {
            give_up(&s, sp);
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

/* Mark a box with an empty side: everything left in it is changed. */
static void mark_box(const ctx *c, const box *bx)
{
    if (bx->x1 > bx->x0)
        memset(c->ca + bx->x0, 1, (size_t)(bx->x1 - bx->x0));
    if (bx->y1 > bx->y0)
        memset(c->cb + bx->y0, 1, (size_t)(bx->y1 - bx->y0));
}

static int64_t box_size(const box *bx)
{
    return (int64_t)bx->x1 - bx->x0 + bx->y1 - bx->y0;
}

/* Solve a box: recurse into the smaller half of each cut, loop on the
 * larger, so the stack stays O(log n) deep. */
static void solve(const ctx *c, box bx, int need_min)
{
    for (;;) {
        box lo, hi;
        split sp;

        trim_box(c, &bx);
        if (bx.x0 == bx.x1 || bx.y0 == bx.y1) {
            mark_box(c, &bx);
            return;
        }
        find_split(c, &bx, need_min, &sp);
        lo = (box){ bx.x0, sp.x, bx.y0, sp.y };
        hi = (box){ sp.x, bx.x1, sp.y, bx.y1 };
        if (box_size(&lo) <= box_size(&hi)) {
            solve(c, lo, sp.min_lo);
            bx = hi;
            need_min = sp.min_hi;
        } else {
            solve(c, hi, sp.min_hi);
            bx = lo;
            need_min = sp.min_lo;
        }
    }
}

static int32_t isqrt(int64_t v)
{
    int64_t r = 0;

    while ((r + 1) * (r + 1) <= v)
        r++;
    return (int32_t)r;
}

/* Run Myers over a[0..n) and b[0..m), setting ca / cb (zeroed by the
 * caller) for every element outside the common subsequence. */
static int myers(const uint64_t *a, int32_t n, const uint64_t *b, int32_t m,
                 int minimal, uint8_t *ca, uint8_t *cb)
{
    ctx c = { a, b, ca, cb, NULL, NULL, 0, INT32_MAX };
    int64_t full = (int64_t)n + m + 3;
    int rc;

    if (!minimal) {
        c.cap = isqrt(full) > COST_FLOOR ? isqrt(full) : COST_FLOOR;
    }
    c.vlen = (int32_t)full;
    if (!minimal && 2 * (int64_t)c.cap + 5 < full)
        c.vlen = 2 * c.cap + 5;
    c.vf = malloc((size_t)c.vlen * sizeof *c.vf);
    c.vb = malloc((size_t)c.vlen * sizeof *c.vb);
    rc = c.vf && c.vb ? 0 : TT_ENOMEM;
    if (rc == 0)
        solve(&c, (box){ 0, n, 0, m }, minimal);
    free(c.vf);
    free(c.vb);
    return rc;
}

static inline size_t bit_of(uint64_t key, int shift)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> shift);
}

/* Mark in flags every x[i] whose key cannot occur in y (bitmap of 2^bits
 * bits, zeroed here). Returns how many were marked. */
static size_t mark_unique(const uint64_t *x, size_t nx, const uint64_t *y,
                          size_t ny, uint8_t *map, int bits, uint8_t *flags)
{
    int shift = 64 - bits;
    size_t i, marked = 0;

    memset(map, 0, ((size_t)1 << bits) / 8);
    for (i = 0; i < ny; i++) {
        size_t h = bit_of(y[i], shift);

        map[h >> 3] |= (uint8_t)(1u << (h & 7));
    }
    for (i = 0; i < nx; i++) {
        size_t h = bit_of(x[i], shift);

        flags[i] = !(map[h >> 3] & (1u << (h & 7)));
        marked += flags[i];
    }
    return marked;
}

/* Discard pass: flag elements of a (in ca) not in b and of b (in cb) not in
 * a. Returns the number flagged, or -1 when out of memory. */
static int64_t discard(const uint64_t *a, size_t n, const uint64_t *b,
                       size_t m, uint8_t *ca, uint8_t *cb)
{
    size_t big = n > m ? n : m;
    int bits = 6;
    uint8_t *map;
    size_t marked;

    while (((size_t)1 << bits) < 8 * big)
        bits++;
    map = malloc(((size_t)1 << bits) / 8);
    if (!map)
        return -1;
    marked = mark_unique(a, n, b, m, map, bits, ca);
    marked += mark_unique(b, m, a, n, map, bits, cb);
    free(map);
    return (int64_t)marked;
}

/* Copy the unflagged keys of x into a new array; *nk gets their count. */
static uint64_t *keep(const uint64_t *x, size_t n, const uint8_t *flags,
                      int32_t *nk)
{
    uint64_t *k = malloc((n ? n : 1) * sizeof *k);
    size_t i, j = 0;

    if (!k)
        return NULL;
    for (i = 0; i < n; i++) {
        if (!flags[i])
            k[j++] = x[i];
    }
    *nk = (int32_t)j;
    return k;
}

/* Copy the compact flags back onto the unflagged elements. */
static void scatter(uint8_t *flags, size_t n, const uint8_t *kf)
{
    size_t i, j = 0;

    for (i = 0; i < n; i++) {
        if (!flags[i])
            flags[i] = kf[j++];
    }
}

/* Myers over the elements the discard pass kept. */
static int align_kept(const uint64_t *a, size_t n, const uint64_t *b,
                      size_t m, int minimal, uint8_t *ca, uint8_t *cb)
{
    int32_t nk = 0, mk = 0;
    uint64_t *ka = keep(a, n, ca, &nk), *kb = keep(b, m, cb, &mk);
    uint8_t *fa = calloc((size_t)nk + 1, 1), *fb = calloc((size_t)mk + 1, 1);
    int rc = TT_ENOMEM;

    if (!ka || !kb || !fa || !fb)
        goto out;
    rc = myers(ka, nk, kb, mk, minimal, fa, fb);
    if (rc == 0) {
        scatter(ca, n, fa);
        scatter(cb, m, fb);
    }
out:
    free(ka);
    free(kb);
    free(fa);
    free(fb);
    return rc;
}

/* Align the middle parts a[0..n), b[0..m) (both non-empty), flags in ca/cb. */
static int align_middle(const uint64_t *a, size_t n, const uint64_t *b,
                        size_t m, int minimal, uint8_t *ca, uint8_t *cb)
{
    int64_t dropped = discard(a, n, b, m, ca, cb);

    if (dropped < 0)
        return TT_ENOMEM;
    if (dropped > 0 && (size_t)dropped * 4 >= n + m)
        return align_kept(a, n, b, m, minimal, ca, cb);
    /* too few to be worth a copy: Myers will not match them anyway */
    return myers(a, (int32_t)n, b, (int32_t)m, minimal, ca, cb);
}

/* Walk the flags; fill h (may be NULL to count). Returns the hunk count. */
static size_t collect(const uint8_t *ca, size_t n, const uint8_t *cb,
                      size_t m, size_t off, ttd_hunk *h)
{
    size_t i = 0, j = 0, nh = 0;

    while (i < n || j < m) {
        ttd_hunk cur;

        if (i < n && j < m && !ca[i] && !cb[j]) {
            i++;
            j++;
            continue;
        }
        cur.a0 = off + i;
        cur.b0 = off + j;
        while (i < n && ca[i])
            i++;
        while (j < m && cb[j])
            j++;
        cur.a1 = off + i;
        cur.b1 = off + j;
        if (h)
            h[nh] = cur;
        nh++;
    }
    return nh;
}

/* The case with an empty middle side: one hunk, or none. */
static int emit_whole(size_t off, size_t n, size_t m, ttd_hunk **out,
                      size_t *nout)
{
    if (n == 0 && m == 0)
        return 0;
    *out = malloc(sizeof **out);
    if (!*out)
        return TT_ENOMEM;
    **out = (ttd_hunk){ off, off + n, off, off + m };
    *nout = 1;
    return 0;
}

/* Turn the flags into the hunk array. */
static int emit(const uint8_t *ca, size_t n, const uint8_t *cb, size_t m,
                size_t off, ttd_hunk **out, size_t *nout)
{
    size_t nh = collect(ca, n, cb, m, off, NULL);

    if (nh == 0)
        return 0;
    *out = malloc(nh * sizeof **out);
    if (!*out)
        return TT_ENOMEM;
    *nout = collect(ca, n, cb, m, off, *out);
    return 0;
}

int ttd_align(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
              int minimal, ttd_hunk **out, size_t *nout)
{
    size_t pre = 0, n, m;
    uint8_t *ca, *cb;
    int rc;

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
    if (n == 0 || m == 0)
        return emit_whole(pre, n, m, out, nout);
    if (n >= MAX_SIDE || m >= MAX_SIDE)
        return TT_ENOMEM;
    ca = malloc(n);
    cb = malloc(m);
    rc = ca && cb ? align_middle(a + pre, n, b + pre, m, minimal, ca, cb)
                  : TT_ENOMEM;
    if (rc == 0)
        rc = emit(ca, n, cb, m, pre, out, nout);
    free(ca);
    free(cb);
    return rc;
}
