/*
 * timing.c - hunks that say how the threads were timed rather than what
 * the program did: a wait loop that ran more times in one run, and work
 * that moved from one thread to another (who won a pthread_once or a
 * lock). They are marked (ttd_hunk_info.timing), listed after the
 * divergences and never the first divergence nor counted in the exit
 * status. Stage 1 align of diff/STAGES (its header: state.h).
 *
 * Design. The tree aligner gives a loop that ran more times as a one-sided
 * hunk, its extra iterations (or, when the loops were cut differently, an
 * iteration aligned against a neighbouring call). Each side of a hunk
 * that has events is judged; the hunk is a wait loop (TTD_TIMING_WAIT)
 * when each such side is one, that is when
 *   - it repeats: every function it enters is entered twice or more in
 *     it, or also among the REPEAT_BEFORE calls before it or the
 *     REPEAT_AFTER calls after it in the same thread (more iterations of
 *     the loop beside it), or returns at once while the hunk blocks (a
 *     condition wait or join between two of its events) beside a call
 *     that repeats: the condition of a wait loop that ran once, as zstd's
 *     AIO_ReadPool_numReadsInFlight(), and
 *   - it waits, about once per iteration: the iterations (the times its
 *     first function is entered) are at most twice its waits, a wait being
 *     an idle gap of GAP_NS or more between two kept events of the thread
 *     (around and inside the hunk: a sleep, a blocked call that is not
 *     traced), a call of a function named like a wait (sleep, poll...),
 *     or a blocking sync operation (condition wait, join) in the hunk.
 * So a consumer that found fewer items (no waits between its iterations)
 * is still a divergence, and so is a loop that ran longer because it
 * computed (a preemption or two in a thousand iterations is not once per
 * iteration). Nor is the end of a bad-run thread that called exit while
 * its good-run partner did not (the END record is in its stream): its
 * loop stopped there because it ended the process (a writer thread whose
 * write failed), not because the threads were timed differently. A one-sided hunk of one thread whose events, key for key
 * (hashed), are exactly those of a one-sided hunk of the other run in
 * another thread is moved work (TTD_TIMING_MOVED): the table built by
 * whichever thread reached pthread_once first.
 * Cost: one pass over each side of a pair that has hunks, up to the last
 * of them; identical runs have none and pay nothing. A hunk side of more
 * than SIDE_MAX events is not judged (no wait loop is that long, and the
 * pass would read a whole thread that differs everywhere).
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"

#define GAP_NS 20000u       /* an idle gap that counts as a wait */
#define REPEAT_BEFORE 256   /* calls before a hunk it may repeat */
#define REPEAT_AFTER 256    /* calls after it */
#define KEYS_MAX 16         /* distinct functions a wait loop enters */
#define SIDE_MAX (1u << 20) /* events of a hunk side judged at most */

int ttdi_waits_name(const char *name)
{
    static const char *const words[] = {"sleep", "poll", "wait", "yield", "spin",
        "select", "timeout", "timed", "backoff", "retry", "idle", "delay", "pause"};

    for (size_t i = 0; name && i < sizeof words / sizeof *words; i++)
        if (strcasestr(name, words[i]))
            return 1;
    return 0;
}

/* One function a hunk side enters. */
typedef struct fkey {
    uint64_t key;           /* its ENTER key */
    uint64_t calls;         /* times entered in the hunk */
    uint8_t found;          /* also entered beside the hunk */
    uint8_t waits;          /* its name says it waits */
    uint8_t inner;          /* 1: a call of it made calls (not a leaf) */
} fkey;

/* One side of a one-sided hunk being judged. */
typedef struct cand {
    size_t hunk;            /* its index in the pair */
    uint64_t lo, hi;        /* key index range */
    uint64_t hash;          /* its keys, hashed in order */
    uint64_t waits;         /* gaps, wait calls, blocking operations */
    uint64_t blocked;       /* blocking operations (condition wait, join) */
    fkey k[KEYS_MAX];       /* functions entered */
    size_t nk;
    int many;               /* 1: more than KEYS_MAX functions */
    unsigned after;         /* calls after it still to look at */
} cand;

/* The scan of one thread. */
typedef struct scan {
    ttdi_norm *norm;
    uint64_t ring[REPEAT_BEFORE]; /* last ENTER keys before */
    size_t nring;
    cand *c;                /* candidates on this side, ascending */
    size_t nc, next;        /* count; the first not yet ended */
    size_t afirst;          /* the first still looking after itself */
    uint64_t n;             /* kept events so far */
    uint64_t last_ns;       /* time of the last kept event */
    fkey *open;             /* the function entered by the last kept event,
                               inside a candidate (its call a leaf if the
                               next kept event is its EXIT) */
    uint64_t open_exit;     /* that EXIT's key */
} scan;

static fkey *fk_find(cand *c, uint64_t key)
{
    for (size_t i = 0; i < c->nk; i++)
        if (c->k[i].key == key)
            return &c->k[i];
    return NULL;
}

/* A function entered inside candidate c (its name looked up once). */
static void enter_inside(scan *s, cand *c, const ttf_event *ev, uint64_t key)
{
    fkey *f = fk_find(c, key);

    if (!f) {
        if (c->nk == KEYS_MAX) {
            c->many = 1;
            return;
        }
        f = &c->k[c->nk++];
        f->key = key;
        f->calls = 0;
        f->waits = (uint8_t)ttdi_waits_name(ttdi_norm_func(s->norm, ev));
        f->found = 0;
        size_t m = s->nring < REPEAT_BEFORE ? s->nring : REPEAT_BEFORE;
        for (size_t i = 0; i < m && !f->found; i++)
            f->found = s->ring[i] == key;
    }
    f->calls++;
    c->waits += f->waits;
    s->open = f;
    s->open_exit = ttdi_norm_exit_of(key);
}

/* One kept event (key) of the thread at key index s->n. */
static void kept(scan *s, const ttf_event *ev, uint64_t key)
{
    uint64_t i = s->n++, gap = ev->time_ns - s->last_ns;
    int enter = ev->kind == TTF_EV_ENTER;

    s->last_ns = ev->time_ns;
    if (s->open && !(ev->kind == TTF_EV_EXIT && key == s->open_exit))
        s->open->inner = 1;
    s->open = NULL;
    for (size_t j = s->next; j < s->nc && s->c[j].lo <= i; j++) {
        cand *c = &s->c[j];
        if (i >= c->hi) {   /* after it: the first event ends its last gap */
            if (i == c->hi && i && gap >= GAP_NS)
                c->waits++;
            if (s->next == j)
                s->next++;
            continue;
        }
        if (i && gap >= GAP_NS)
            c->waits++;
        c->hash = (c->hash ^ key) * 0x100000001B3ull;
        if (enter)
            enter_inside(s, c, ev, key);
    }
    while (s->afirst < s->next && !s->c[s->afirst].after)
        s->afirst++;
    for (size_t j = s->afirst; enter && j < s->next; j++) {
        cand *c = &s->c[j];
        if (!c->after || i < c->hi)
            continue;
        c->after--;
        fkey *f = fk_find(c, key);
        if (f)
            f->found = 1;
    }
    if (enter)
        s->ring[s->nring++ % REPEAT_BEFORE] = key;
}

/* A blocking sync operation inside a candidate counts as a wait. */
static void sync_op(scan *s, const ttf_event *ev)
{
    if (ev->code != TTF_SOP_WAIT && ev->code != TTF_SOP_JOIN)
        return;
    for (size_t j = s->next; j < s->nc && s->c[j].lo <= s->n; j++) {
        s->c[j].waits += s->n < s->c[j].hi;
        s->c[j].blocked += s->c[j].lo < s->n && s->n < s->c[j].hi; /* between two of its events */
    }
}

/* Scan thread th of run r for candidates c[0..nc), ascending. */
static int scan_thread(ttdi_run_state *r, uint32_t th, cand *c, size_t nc)
{
    scan s;
    ttf_iter *it;
    ttf_event ev;
    uint64_t key, end = 0;
    int rc;

    memset(&s, 0, sizeof s);
    s.norm = &r->norm;
    s.c = c;
    s.nc = nc;
    for (size_t j = 0; j < nc; j++)
        end = c[j].hi + REPEAT_AFTER * 2 > end ? c[j].hi + REPEAT_AFTER * 2 : end;
    if ((rc = ttf_iter_open(r->t, th, &it)) < 0)
        return rc;
    while (s.n <= end && (rc = ttf_iter_next(it, &ev)) > 0) {
        if (ev.kind == TTF_EV_SYNC_OP) {
            sync_op(&s, &ev);
            continue;
        }
        if ((rc = ttdi_norm_key(s.norm, &ev, &key)) < 0)
            break;
        if (rc)
            kept(&s, &ev, key);
        rc = 1;
    }
    ttf_iter_close(it);
    return rc < 0 ? rc : 0;
}

/* Is candidate c a wait loop? */
static int wait_loop(const cand *c)
{
    int repeats = 0;

    if (c->many || !c->nk)
        return 0;
    for (size_t i = 0; i < c->nk; i++) {
        int rep = c->k[i].found || c->k[i].calls >= 2;
        if (!rep && (c->k[i].inner || !c->blocked))
            return 0;
        repeats |= rep;
    }
    if (!repeats)
        return 0;
    return c->waits && c->k[0].calls <= 2 * c->waits;
}

/* 1: the bad thread of p ended its process (it called exit: the END
 * record is in its stream) and the good thread did not. */
static int exits_alone(const ttd_diff *d, const ttdi_ipair *p)
{
    const ttf_process *g = ttf_get_process(d->r[TTD_GOOD].t);
    const ttf_process *b = ttf_get_process(d->r[TTD_BAD].t);

    return b && b->exit_thread == (int64_t)p->t[1] && (!g || g->exit_thread != (int64_t)p->t[0]);
}

/* The hunks of p that may be timing: not expected, not where the bad run
 * crashed, and not the end of a bad thread that ended the process by
 * itself (exited: its loop stopped because it decided so, not because
 * it was timed differently). Their non-empty sides s (0 good, 1 bad)
 * into c. */
static size_t candidates(const ttdi_ipair *p, int exited, int s, cand *c)
{
    size_t n = 0;

    for (size_t i = 0; i < p->nh; i++) {
        const ttdi_hunk *h = &p->h[i];
        uint64_t lo = s ? h->b0 : h->a0, hi = s ? h->b1 : h->a1;
        if ((p->exp && p->exp[i]) || lo == hi || hi - lo > SIDE_MAX)
            continue;
        if (p->crash != UINT64_MAX && p->crash < h->b1 + 1)
            continue;
        if (exited && h->b1 == p->n[1])
            continue;
        memset(&c[n], 0, sizeof c[n]);
        c[n].hunk = i;
        c[n].lo = lo;
        c[n].hi = hi;
        c[n].hash = 0xcbf29ce484222325ull ^ (hi - lo);
        c[n++].after = REPEAT_AFTER;
    }
    return n;
}

/* A one-sided hunk that is not a wait loop, for the moved-work match. */
typedef struct mv {
    uint64_t hash;
    size_t pair, hunk;
    int side;
} mv;

static int cmp_mv(const void *x, const void *y)
{
    const mv *a = x, *b = y;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return a->side - b->side;
}

/* Judge pair pi: a hunk is a wait loop when each of its sides that has
 * events is one (a loop that ran more times in one run, or an iteration
 * aligned against another); its other one-sided hunks go to m (room for
 * its hunks), for the moved-work match. */
static int judge_pair(ttd_diff *d, size_t pi, mv *m, size_t *nm)
{
    ttdi_ipair *p = &d->ip[pi];
    cand *c = malloc((p->nh + 1) * sizeof *c);
    uint8_t *ok = calloc(p->nh + 1, 1);
    int rc = c && ok ? 0 : TT_ENOMEM;

    int exited = exits_alone(d, p);

    for (int s = 0; s < 2 && rc >= 0; s++) {
        size_t nc = candidates(p, exited, s, c);
        if (!nc)
            continue;
        if ((rc = scan_thread(&d->r[s], p->t[s], c, nc)) < 0)
            break;
        for (size_t j = 0; j < nc; j++) {
            const ttdi_hunk *h = &p->h[c[j].hunk];
            int other = s ? h->a1 > h->a0 : h->b1 > h->b0;
            if (wait_loop(&c[j]))
                ok[c[j].hunk] |= (uint8_t)(1u << s);
            else if (!other)
                m[(*nm)++] = (mv){c[j].hash, pi, c[j].hunk, s};
        }
    }
    for (size_t i = 0; rc >= 0 && i < p->nh; i++) {
        unsigned need = (p->h[i].a1 > p->h[i].a0) | (unsigned)(p->h[i].b1 > p->h[i].b0) << 1;
        if (need && ok[i] == need)
            p->tim[i] = TTD_TIMING_WAIT;
    }
    free(c);
    free(ok);
    return rc;
}

/* Moved work: equal one-sided hunks, good-only in one pair and bad-only
 * in another, each used once. */
static void moved(ttd_diff *d, mv *m, size_t n)
{
    qsort(m, n, sizeof *m, cmp_mv);
    for (size_t i = 0, j; i < n; i = j) {
        size_t g = i, b;
        for (j = i; j < n && m[j].hash == m[i].hash; j++)
            ;
        for (b = i; b < j && !m[b].side; b++)
            ;
        for (; g < b && b < j; g++) { /* good-only [i, b), bad-only [b, j) */
            size_t k = b;
            while (k < j && (m[k].pair == m[g].pair || m[k].hash == 0))
                k++;
            if (k == j)
                continue;
            d->ip[m[g].pair].tim[m[g].hunk] = TTD_TIMING_MOVED;
            d->ip[m[k].pair].tim[m[k].hunk] = TTD_TIMING_MOVED;
            m[k].hash = 0; /* used */
        }
    }
}

int ttdi_timing_mark(ttd_diff *d)
{
    size_t total = 0, nm = 0;
    int rc = 0;

    for (size_t i = 0; i < d->nip; i++) {
        ttdi_ipair *p = &d->ip[i];
        total += p->nh;
        if (p->nh && !(p->tim = calloc(p->nh, 1)))
            return TT_ENOMEM;
    }
    mv *m = malloc((total + 1) * sizeof *m);
    if (!m)
        return TT_ENOMEM;
    for (size_t i = 0; i < d->nip && rc >= 0; i++)
        if (d->ip[i].nh)
            rc = judge_pair(d, i, m, &nm);
    if (rc >= 0)
        moved(d, m, nm);
    free(m);
    return rc;
}
