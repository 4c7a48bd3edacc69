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
 *     condition wait or join between two of its events): the condition of
 *     a wait loop that ran once, as zstd's AIO_ReadPool_numReadsInFlight(),
 *     beside a call that repeats, or with none repeating when a call
 *     follows the wait (check, wait, check again: one iteration that the
 *     other run did not need; the wait may also sit right at the hunk's
 *     start, after a check that returned at once and that the hunk makes
 *     again: the aligner matched the first check with the other run's,
 *     zstd's AIO_ReadPool_numReadsInFlight in two good runs), and
 *   - it waited, and the wait is recorded: about once per iteration (the
 *     iterations, the times its first function is entered, at most twice
 *     its waits), a wait being a blocking sync operation (condition wait,
 *     join, a sleep or I/O wait libttcap recorded) in the hunk or a traced
 *     call named like a wait (sleep,
 *     poll...) that blocked, GAP_NS or more from its ENTER to its EXIT,
 *     inside the hunk; or the whole hunk inside one such call that
 *     blocked (the loop a wait_for runs). An untimed event (FORMAT.md
 *     4.5, 4.7) is taken at the bound that never shortens a wait: an
 *     untimed ENTER (lazy clock) at its earliest (early_ns), an untimed
 *     EXIT at its latest (late_ns), the end of a blocking operation at
 *     the thread's next record's latest; measured times are taken as
 *     they are. An idle gap between two events
 *     is no evidence of waiting (a loop that ran once more and then slept
 *     in untraced code, or computed there, is a divergence), and nothing
 *     is timing in a program that ran one thread in both runs: a count
 *     that differs there is the program's. The waits that made a hunk
 *     one and the time they blocked are kept per hunk (ipair.waitns: a
 *     blocking operation until the thread's next record, a join since
 *     its last, a wait call from ENTER to EXIT; a blocking operation
 *     inside a wait call is one wait): the evidence the verdict states.
 * A loop that waited for nothing is a wait loop of another kind in values
 * mode (TTD_TIMING_SPIN, spin_proof): a one-sided hunk whose keys are
 * whole iterations of a loop (periods: p keys, p at most SPIN_P, repeat
 * over the hunk and one iteration around it, or over two iterations or
 * more of its own) with no wait recorded, read again with values: every
 * argument and result equals the same key's one iteration before, but
 * for a call whose result reads as the run's own coarse clock (us, ms,
 * s: clock_reading), constant, rising once in the window or the
 * iteration after it (the clock turned where the loop left). Iterations that saw
 * nothing new but a clock that did not move spun until it turned
 * (nng's nni_aio_expire_loop: now == the aio's deadline, the same
 * millisecond, rescanned as often as the machine was fast). A worker
 * that stamps each item reads other items (other values); a loop with no
 * clock reading counts what the program decided; in plain mode there are
 * no values and no such proof: a divergence. Cost: inside a candidate,
 * one compare per period still possible per key (a hunk that is no loop
 * drops them within its first iterations); a values read again only of
 * the window of a candidate that has a period and no wait, from the last
 * mark before it.
 * Between two builds, a loop inside a function whose machine code changed
 * is never a wait loop: the changed code may decide how often it waits
 * (pbzip2's fileWriter, whose wait predicate a patch got wrong, waited in
 * the good build and not in the bad one). So a consumer that found
 * fewer items (no waits between its iterations)
 * is still a divergence, and so is a loop that ran longer because it
 * computed (a preemption or two in a thousand iterations is not once per
 * iteration). Nor is the end of a bad-run thread that called exit while
 * its good-run partner did not (the END record is in its stream): its
 * loop stopped there because it ended the process (a writer thread whose
 * write failed), not because the threads were timed differently; nor the
 * end of any bad-run thread when the bad run was killed (no clean end,
 * no crash) and the good run exited: what the good run did past it is
 * the work a hang never reached.
 * A one-sided hunk of whole calls that sits inside a call named like a
 * lock (ttdi_lock_wrapper: lock, unlock, mutex, futex, spin...) and
 * enters only functions named so is the lock's own slow path
 * (TTD_TIMING_CONTENDED): glib's g_mutex_unlock calls
 * g_mutex_unlock_slowpath only when another thread waits for the mutex
 * at that instant, which differs between two good runs. A lock the
 * program took once more sits in the program's own call and stays a
 * divergence; so does anything in a lock whose code changed between
 * the builds.
 * A one-sided hunk of one thread whose events, key for key
 * (hashed), are exactly those of a one-sided hunk of the other run in
 * another thread is moved work (TTD_TIMING_MOVED): the table built by
 * whichever thread reached pthread_once first. An attempt that did its
 * work at once in one run and failed in the other, which made it again
 * later (a try-add to a full queue: zstd's ZSTDMT_createCompressionJob
 * and POOL_tryAdd), is retried (TTD_TIMING_RETRY): the work missing
 * inside the failed attempt, and the later hunk of the other run that
 * holds a whole copy of the attempt that did it (plus copies of the
 * failed one, and calls that return at once and repeat: the check of its
 * result). For that the scan follows the open calls and hashes each call
 * from a prefix hash of the keys (a polynomial hash mod 2^64: a call's
 * hash from its two ends), keeping those of a hunk's ANC enclosing calls
 * and of its whole calls. Work found one wait later is retried too
 * (later()): a hunk A of whole calls that run X alone has (uv__io_poll(
 * loop, 0) found a worker's completion through epoll at once), and the
 * next hunk that is no divergence, B, that run Y alone has, holding a
 * whole copy of each of A's calls (at its level or one below) after an
 * I/O wait it recorded (SLEEP: epoll_wait, poll) that ended before its
 * own timeout (it was woken by what it waited for: no sleep, no wait that
 * timed out - a lost wake-up that a timer made good is a divergence; a
 * condition wait says nothing of that, and a hand-off through a lock is
 * order.c's), every other call in B of a function entered before it (one
 * more turn of the loop).
 * Cost: one pass over each side of a pair that has hunks, up to the last
 * of them (a stack of up to STACK_MAX open calls beside it); identical
 * runs have none and pay nothing. A hunk side of more
 * than SIDE_MAX events is not judged (no wait loop is that long, and the
 * pass would read a whole thread that differs everywhere).
 * The pass is a run walk (walker.c, with SLEEPs): the first read of the
 * thread's prefix, it leaves marks that resolve's pass, the details and
 * the order checks of the thread start from (issue 38 item 4: the prefix
 * before a split is read once, not again by each of them), one of them
 * pinned TTDI_PIN_BACK kept events before the pair's first hunk (the
 * details' windows begin after it). Unless the tree build read the
 * thread by a run walk already (a pair that looked different, pair_align.c):
 * that walk kept the scan's prefix state at its marks (ttdi_tpre_*), and
 * the scan starts at the last of them before the first hunk and the pin,
 * with that state (resume). Its keys come through a small cache
 * (ttdi_norm_key_hot), not a normaliser look-up per event. Before the
 * first hunk no candidate is open or started, so the kept events there
 * take the prefix path (kept_before: the open calls, the prefix hash, the
 * ring, the leaf; no candidate loops, no watched frames): the long
 * prefix of a split near the thread's end pays the scan's state, not its
 * checks (issue 38 item 4). When little
 * of the thread is left after the last hunk (a split near its end), it
 * reads on to the end: the run walks count the calls of what they first
 * read while the engine asks (ttdi_run_state.count_calls), and the count
 * facts then take the thread's from them instead of a pass of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "codediff.h"
#include "state.h"

#define GAP_NS 20000u       /* an idle gap that counts as a wait */
#define REPEAT_BEFORE 256   /* calls before a hunk it may repeat */
#define REPEAT_AFTER 256    /* calls after it */
#define KEYS_MAX 16         /* distinct functions a wait loop enters */
#define SIDE_MAX (1u << 20) /* events of a hunk side judged at most */
#define ANC 3               /* enclosing calls of a hunk whose hashes are kept */
#define TOP_MAX 8           /* whole calls of a hunk side, for the retry match */
#define DEEP_MAX 16         /* whole calls one level below, for the later match */
#define LATER_MAX 4096      /* events of a hunk side that holds work found later */
#define FRESH_MAX 32        /* its calls of functions not entered before it */
#define STACK_MAX 4096      /* open calls the scan follows */
#define RETRY_NEAR 16       /* hunks after a retry's first one looked at */
#define SPIN_P 64           /* keys of one iteration of a clock spin at most */
#define KRING 128           /* the thread's last keys kept (a power of 2,
                               above SPIN_P) */

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
    uint8_t lock;           /* its name reads as a lock wrapper */
} fkey;

/* One side of a one-sided hunk being judged. */
typedef struct cand {
    size_t hunk;            /* its index in the pair */
    uint64_t lo, hi;        /* key index range */
    uint64_t hash;          /* its keys, hashed in order */
    uint64_t waits;         /* wait calls that blocked, blocking operations */
    uint64_t op_waits, op_ns; /* blocking operations, the time they
                               blocked (to the thread's next record) */
    uint64_t call_waits, call_ns; /* wait calls that blocked, the time
                               (ENTER to EXIT: a blocking operation inside
                               one is the same wait, counted once) */
    int in_blocked;         /* inside one call named like a wait that blocked */
    uint64_t blocked;       /* blocking operations (condition wait, join) */
    uint64_t between;       /* calls made after one of them, which came
                               after a call: check, wait, check again */
    int pend;               /* a blocking operation after a call, no call yet */
    uint64_t edge_key;      /* a condition wait right at its start (before
                               its first event) that came just after a call
                               which returned at once: that call's ENTER key */
    int edge;               /* 1: edge_key is set */
    int edge_again;         /* 1: it calls that check again (same key) */
    int expected;           /* 1: the hunk also varies between the good
                               runs: judged a wait loop or not (for the
                               count facts), never retry, later or moved */
    fkey k[KEYS_MAX];       /* functions entered */
    size_t nk;
    int many;               /* 1: more than KEYS_MAX functions */
    unsigned after;         /* calls after it still to look at */
    int empty;              /* 1: this side has no events (a point) */
    int in_wait;            /* the innermost call open at its start is named
                               like a wait (wait_for: the loop it runs) */
    int in_lock;            /* ... reads as a lock wrapper (ttdi_lock_wrapper) */
    int in_changed;         /* ... is a function whose machine code changed
                               between the two builds (codediff.c) */
    uint64_t t0;            /* the time of the kept event before it */
    size_t base;            /* open calls at lo */
    uint64_t anc[ANC];      /* enclosing calls at lo, innermost first:
                               their subtree hashes, once they returned */
    uint64_t ancat[ANC];    /* ... their ENTER's key index */
    unsigned nanc, ancok;   /* how many; bit k: anc[k] is known */
    uint64_t top[TOP_MAX];  /* its whole calls at its own level: hashes */
    uint64_t topkey[TOP_MAX]; /* ... their ENTER keys */
    uint8_t topleaf[TOP_MAX]; /* ... 1: returned at once */
    uint64_t topat[TOP_MAX]; /* ... their ENTER's key index */
    unsigned ntop;
    int topbad;             /* something else at its level, or too many */
    uint64_t deep[DEEP_MAX]; /* whole calls one level below its own: hashes */
    uint64_t deepat[DEEP_MAX]; /* ... their ENTER's key index */
    uint64_t deepend[DEEP_MAX]; /* ... their EXIT's */
    unsigned ndeep;
    int deepbad;            /* more than DEEP_MAX of them */
    uint64_t wait1;         /* key index + 1 of its first blocking
                               operation, 0: none */
    int w1sleep;            /* ... a SLEEP (an I/O wait or a sleep) */
    uint64_t w1arg, w1ns;   /* ... its argument (a SLEEP's timeout in ns),
                               how long it blocked */
    int lone;               /* the other run's side of its hunk is empty */
    uint64_t fresh[FRESH_MAX]; /* key indices of its calls of functions
                               not entered in the REPEAT_BEFORE calls
                               before it (beyond KEYS_MAX functions: lone
                               small ones only) */
    unsigned nfresh;
    int freshbad;           /* more than FRESH_MAX of them */
    uint64_t plive;         /* bit p: p + 1 keys may be one iteration of a
                               loop it repeats (lone, not expected: a
                               divisor of its length, no key in [lo + p +
                               1, hi) other than the one p + 1 before) */
    uint32_t prun[SPIN_P];  /* per period: keys in a row, from lo on, equal
                               to the key p + 1 before */
    uint64_t spin_p;        /* the smallest period p (keys of one
                               iteration) whose window [spin_x, spin_y) is
                               periodic: it and one iteration more around
                               it, or its own keys when it holds two
                               iterations or more; 0: none */
    uint64_t spin_x, spin_y;
} cand;

/* An open call the scan follows. */
typedef struct frame {
    uint64_t at;            /* its ENTER's key index */
    uint64_t ph;            /* the prefix hash before it */
    uint64_t enter;         /* its ENTER's key */
    int watch;              /* a candidate wants its hash */
    uint64_t addr, t;       /* its function and when (its name, if asked;
                               an untimed ENTER: the earliest, since_ns) */
} frame;

/* The scan of one thread. */
typedef struct scan {
    ttdi_norm *norm;
    ttdi_keyhot *hot;       /* recent keys (TTDI_KEYHOT slots) */
    const struct ttdi_codediff *cd; /* two builds: changed code, NULL */
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
    uint64_t blk_ns;        /* a blocking operation's time, its key index */
    uint64_t blk_at;        /*   blk_at (UINT64_MAX: none pending) */
    uint64_t prev_ns;       /* time of the thread's last record */
    uint64_t enter_key;     /* the last kept event's key if an ENTER */
    uint64_t leaf_key;      /* ENTER key of the call the last kept event
                               ended if it returned at once (a check) */
    int leaf;               /* 1: leaf_key is set */
    frame *st;              /* open calls (STACK_MAX at most followed) */
    size_t nst, deep;       /* followed; open beyond them */
    uint64_t ph, php;       /* prefix hash of the keys so far, and before
                               the last one */
    size_t started;         /* candidates whose lo was reached */
    size_t cur;             /* the last non-empty one of them, or SIZE_MAX */
    uint64_t kr[KRING];     /* the last KRING keys, by key index */
    size_t spfirst;         /* the first candidate still judging periods */
} scan;

uint64_t ttdi_hb_pow(uint64_t n)
{
    uint64_t r = 1, b = TTDI_HB;

    for (; n; n >>= 1, b *= b)
        if (n & 1)
            r *= b;
    return r;
}

/* Candidates starting at key index i: the calls open there. */
static void cand_start(scan *s, uint64_t i)
{
    for (; s->started < s->nc && s->c[s->started].lo <= i; s->started++) {
        cand *c = &s->c[s->started];
        c->base = s->nst + s->deep;
        c->t0 = s->last_ns;
        if (s->nst && !s->deep) {
            const char *in = ttdi_norm_func_at(s->norm, s->st[s->nst - 1].addr, 0,
                                               s->st[s->nst - 1].t);
            c->in_wait = ttdi_waits_name(in);
            c->in_lock = in && ttdi_lock_wrapper(in);
            c->in_changed = s->cd && in && ttdi_codediff_changed(s->cd, in) == 1;
        }
        for (size_t k = 0; k < ANC && k < s->nst && !s->deep; k++) {
            frame *f = &s->st[s->nst - 1 - k];
            f->watch = 1;
            c->ancat[c->nanc++] = f->at;
        }
        if (!c->empty)
            s->cur = s->started;
    }
}

/* A whole call at candidate c's own level (hash h, ENTER key key,
 * returned at once if leaf). */
static void top_call(cand *c, uint64_t h, uint64_t key, int leaf, uint64_t at)
{
    if (c->ntop == TOP_MAX) {
        c->topbad = 1;
        return;
    }
    c->topleaf[c->ntop] = (uint8_t)leaf;
    c->topkey[c->ntop] = key;
    c->topat[c->ntop] = at;
    c->top[c->ntop++] = h;
}

/* A whole call below candidate c's own level (hash h, ENTER at at). */
static void deep_call(cand *c, uint64_t h, uint64_t at, uint64_t end)
{
    if (c->ndeep == DEEP_MAX) {
        c->deepbad = 1;
        return;
    }
    c->deepat[c->ndeep] = at;
    c->deepend[c->ndeep] = end;
    c->deep[c->ndeep++] = h;
}

/* The call at f (depth d, returned at key index i, its keys hashed: h)
 * to the candidates that wanted it: as an enclosing call, as a whole call
 * at a candidate's level. */
static void call_done(scan *s, const frame *f, size_t d, uint64_t h, uint64_t i, uint64_t key)
{
    cand *c = s->cur != SIZE_MAX ? &s->c[s->cur] : NULL;

    if (c && f->at >= c->lo && i < c->hi && d == c->base)
        top_call(c, h, key, i == f->at + 1, f->at);
    else if (c && f->at >= c->lo && i < c->hi && d == c->base + 1)
        deep_call(c, h, f->at, i);
    if (!f->watch)
        return;
    for (size_t j = s->started; j-- > 0 && s->c[j].lo >= f->at;) {
        c = &s->c[j];
        size_t k = c->base - d - 1;
        if (k < c->nanc && c->ancat[k] == f->at) {
            c->anc[k] = h;
            c->ancok |= 1u << k;
        }
    }
}

/* The call at f returned at key index i, time t: when it is named like a
 * wait and blocked (GAP_NS or more inside it), a recorded wait of every
 * candidate it is inside of (a sleep call in the loop) or that is inside
 * it (the loop of a wait_for). */
static void blocked_call(scan *s, const frame *f, uint64_t t, uint64_t i)
{
    if (t < f->t + GAP_NS || s->started == 0 || s->c[s->started - 1].hi <= f->at)
        return; /* quick, or no candidate overlaps it */
    if (!ttdi_waits_name(ttdi_norm_func_at(s->norm, f->addr, 0, f->t)))
        return;
    for (size_t j = 0; j < s->started; j++) {
        cand *c = &s->c[j];
        if (c->hi <= f->at || c->lo > i)
            continue;
        if (f->at >= c->lo && i < c->hi)
            c->waits++;
        else if (f->at < c->lo && i >= c->hi)
            c->in_blocked = 1;
        else
            continue;
        c->call_waits++;
        c->call_ns += t - f->t;
    }
}

/* When thread's record ev happened, for a wait measured from it: an
 * untimed ENTER (lazy clock) at the earliest it can have been, so that an
 * estimate never shortens a wait or a call; every other record at its
 * time (an untimed EXIT of the sparse clock keeps its placed time here: a
 * join's wait is measured from the thread's last record as before). */
static inline uint64_t since_ns(const ttf_event *ev)
{
    return ev->kind == TTF_EV_ENTER ? ttf_event_early_ns(ev) : ev->time_ns;
}

/* An ENTER key at key index i opens a call (followed while STACK_MAX are
 * not open). */
static inline void open_call(scan *s, const ttf_event *ev, uint64_t key, uint64_t i)
{
    if (s->nst == STACK_MAX || s->deep)
        s->deep++;
    else
        s->st[s->nst++] = (frame){i, s->php, key, 0, ev->addr, since_ns(ev)};
}

/* 1 + the index of the followed call an EXIT key closes (the innermost it
 * matches, within 64 of the top), 0 when it closes none. */
static inline size_t own_call(const scan *s, uint64_t key)
{
    size_t f = s->nst;

    while (f > 0 && s->nst - f < 64 && ttdi_norm_exit_of(s->st[f - 1].enter) != key)
        f--;
    return f > 0 && ttdi_norm_exit_of(s->st[f - 1].enter) == key ? f : 0;
}

/* Kept event key (kind, key index i; s->ph has taken it, s->php is the
 * prefix hash before it) on the stack of open calls: an EXIT closes the
 * innermost open call it matches and those above it (left without one),
 * as the tree builder does (tree.c). */
static void follow(scan *s, const ttf_event *ev, uint64_t key, uint64_t i)
{
    int kind = ev->kind;
    cand *c = s->cur != SIZE_MAX ? &s->c[s->cur] : NULL;

    if (c && (i < c->lo || i >= c->hi))
        c = NULL;
    if (kind == TTF_EV_ENTER) {
        open_call(s, ev, key, i);
        return;
    }
    if (c && s->nst + s->deep <= c->base)
        c->topbad = 1; /* at its level, not inside a whole call */
    if (kind != TTF_EV_EXIT)
        return;
    if (s->deep) {
        s->deep--;
        return;
    }
    size_t f = own_call(s, key);
    if (f == 0)
        return; /* closes nothing followed */
    const cand *cur = s->cur != SIZE_MAX ? &s->c[s->cur] : NULL;
    while (s->nst >= f) {
        frame *fr = &s->st[--s->nst];
        int mine = s->nst == f - 1;
        uint64_t end = mine ? i + 1 : i; /* past its last event */
        if (fr->watch || (cur && fr->at >= cur->lo)) {  /* else no candidate wants it */
            uint64_t h = (mine ? s->ph : s->php) - fr->ph * ttdi_hb_pow(end - fr->at);
            call_done(s, fr, s->nst, h, end - 1, fr->enter);
        }
        if (mine)
            blocked_call(s, fr, ttf_event_late_ns(ev), i);
        if (mine)
            break;
    }
}

static fkey *fk_find(cand *c, uint64_t key)
{
    for (size_t i = 0; i < c->nk; i++)
        if (c->k[i].key == key)
            return &c->k[i];
    return NULL;
}

/* 1: key was entered in the REPEAT_BEFORE calls before. */
static int in_ring(const scan *s, uint64_t key)
{
    size_t m = s->nring < REPEAT_BEFORE ? s->nring : REPEAT_BEFORE;

    for (size_t i = 0; i < m; i++)
        if (s->ring[i] == key)
            return 1;
    return 0;
}

/* A call at key index i inside c of a function not entered before c. */
static void fresh_call(cand *c, uint64_t i)
{
    if (c->nfresh == FRESH_MAX)
        c->freshbad = 1;
    else
        c->fresh[c->nfresh++] = i;
}

/* A function entered inside candidate c (its name looked up once). */
static void enter_inside(scan *s, cand *c, const ttf_event *ev, uint64_t key)
{
    fkey *f = fk_find(c, key);

    if (!f) {
        if (c->nk == KEYS_MAX) {
            c->many = 1;
            if (c->lone && c->hi - c->lo <= LATER_MAX && !in_ring(s, key))
                fresh_call(c, s->n - 1);
            return;
        }
        f = &c->k[c->nk++];
        f->key = key;
        f->calls = 0;
        const char *nm = ttdi_norm_func(s->norm, ev);
        f->waits = (uint8_t)ttdi_waits_name(nm);
        f->lock = (uint8_t)(nm && ttdi_lock_wrapper(nm));
        f->found = (uint8_t)in_ring(s, key);
    }
    if (!f->found)
        fresh_call(c, s->n - 1);
    f->calls++;
    c->edge_again |= c->edge && key == c->edge_key;
    c->between += (uint64_t)c->pend;
    c->pend = 0;
    s->open = f;
    s->open_exit = ttdi_norm_exit_of(key);
}

/* The ring of recent ENTER keys and the leaf state after kept event key
 * (key index i): kept() and kept_before() alike. */
static inline void last_calls(scan *s, int enter, uint64_t key, uint64_t i)
{
    s->kr[i & (KRING - 1)] = key;
    if (enter)
        s->ring[s->nring++ % REPEAT_BEFORE] = key;
    s->leaf = !enter && i && s->enter_key != UINT64_MAX &&
              key == ttdi_norm_exit_of(s->enter_key);
    s->leaf_key = s->enter_key;
    s->enter_key = enter ? key : UINT64_MAX;
}

/* Kept event key at key index i for the periods candidate c may have
 * (c->plive): a key equal to the one p + 1 before extends that period's
 * run; a mismatch inside c past its first p + 1 keys ends the period.
 * Once the run covers c's length at or after c's end, within p + 1 keys
 * after it, c and one iteration around it (the keys before it and after
 * it, a rotation: the aligner may cut the loop anywhere) are periodic:
 * c is whole extra iterations of the loop beside it. */
static void periods(const scan *s, cand *c, uint64_t key, uint64_t i)
{
    uint64_t len = c->hi - c->lo;

    for (uint64_t m = c->plive; m; m &= m - 1) {
        unsigned b = (unsigned)__builtin_ctzll(m);
        uint64_t p = b + 1u, bit = 1ull << b;
        if (i >= p && s->kr[(i - p) & (KRING - 1)] == key) {
            c->prun[b]++;
        } else {
            c->prun[b] = 0;
            if (i >= c->lo + p && i < c->hi) {
                c->plive &= ~bit;
                continue;
            }
        }
        if (i + 1 >= c->hi && (!c->spin_p || p < c->spin_p) &&
            (c->prun[b] >= len || (i + 1 == c->hi && len >= 2 * p))) {
            c->spin_p = p;      /* a rotation with the keys around it, or
                                   two iterations or more of its own */
            c->spin_x = c->prun[b] >= len ? i + 1 - len - p : c->lo;
            c->spin_y = i + 1;
        }
        if (i + 1 >= c->hi + p || (c->spin_p && p > c->spin_p))
            c->plive &= ~bit;   /* its window is past, or a shorter one found */
    }
}

/* One kept event (key) of the thread at key index s->n. */
static void kept(scan *s, const ttf_event *ev, uint64_t key)
{
    uint64_t i = s->n++;
    int enter = ev->kind == TTF_EV_ENTER;

    if (s->started < s->nc && s->c[s->started].lo <= i)
        cand_start(s, i);
    s->php = s->ph;
    s->ph = s->ph * TTDI_HB + key + 1;
    follow(s, ev, key, i);
    s->last_ns = ev->time_ns;
    if (s->open && !(ev->kind == TTF_EV_EXIT && key == s->open_exit))
        s->open->inner = 1;
    s->open = NULL;
    for (size_t j = s->next; j < s->nc && s->c[j].lo <= i; j++) {
        cand *c = &s->c[j];
        if (i >= c->hi) {   /* after it */
            if (s->next == j)
                s->next++;
            continue;
        }
        c->hash = (c->hash ^ key) * 0x100000001B3ull;
        if (enter)
            enter_inside(s, c, ev, key);
    }
    while (s->spfirst < s->started && !s->c[s->spfirst].plive)
        s->spfirst++;
    for (size_t j = s->spfirst; j < s->started; j++)
        if (s->c[j].plive)
            periods(s, &s->c[j], key, i);
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
    last_calls(s, enter, key, i);
}

uint64_t ttdi_timing_full;
int ttdi_timing_noprefix;

/* Kept event key (kind, key index s->n) before the first candidate's
 * start: kept() and follow() as they go there, where no candidate is
 * open or started, so no frame is watched, no call is inside one and no
 * blocked call counts (blocked_call wants a started candidate): the open
 * calls, the prefix hash, the ring and the leaf only (issue 38 item 4: a
 * split near the thread's end is a long prefix; ttdi_timing_full counts
 * the events kept() takes, for the tests). */
static inline __attribute__((always_inline)) void kept_before(scan *s, const ttf_event *ev,
                                                               uint64_t key)
{
    uint64_t i = s->n++;
    int enter = ev->kind == TTF_EV_ENTER;

    s->php = s->ph;
    s->ph = s->ph * TTDI_HB + key + 1;
    s->last_ns = ev->time_ns;
    last_calls(s, enter, key, i);
    if (enter) {
        open_call(s, ev, key, i);
        return;
    }
    if (ev->kind != TTF_EV_EXIT)
        return;
    if (s->deep) {
        s->deep--;
        return;
    }
    size_t f = own_call(s, key);
    if (f > 0)
        s->nst = f - 1; /* it and those above it (left without one) close */
}

/* ---- the prefix state kept by the tree build ----------------------------- */

/* The tree build's run walks of a pair that already looks different
 * (pair_align.c) take each kept event through kept_before too, and keep
 * the prefix state at each mark they leave (a snapshot: the open calls,
 * the prefix hashes, the ring, the leaf); the timing scan of that thread
 * then starts from the last such mark before the pair's first hunk (and
 * before its pin) with that state, instead of reading the thread from its
 * start (issue 38 item 4). What kept_before leaves is all a scan has
 * there: before the first candidate no sync operation leaves anything (a
 * blocking operation pending is settled at the next event, with no
 * candidate to count for), and the last record's time is the marked
 * event's. */
struct ttdi_tpre {
    scan s;                 /* its prefix fields only (kept_before's) */
};

/* A snapshot: run `run`'s thread th after its kept event idx. */
typedef struct tsnap {
    int run;
    uint32_t th;
    uint64_t idx;
    scan s;                 /* s.st: its own copy of the s.nst open calls */
} tsnap;

struct ttdi_tsnaps {
    tsnap *v;
    size_t n, cap;
};

int ttdi_timing_nosnap;

int ttdi_tpre_open(struct ttdi_tpre **out)
{
    struct ttdi_tpre *p = calloc(1, sizeof *p);

    if (p && !(p->s.st = malloc(STACK_MAX * sizeof *p->s.st))) {
        free(p);
        p = NULL;
    }
    if (p)
        p->s.enter_key = UINT64_MAX;
    *out = p;
    return p ? 0 : TT_ENOMEM;
}

void ttdi_tpre_kept(struct ttdi_tpre *p, const ttf_event *ev, uint64_t key)
{
    kept_before(&p->s, ev, key);
}

int ttdi_tpre_save(struct ttdi_tsnaps **snaps, int run, uint32_t th, uint64_t idx,
                   const struct ttdi_tpre *p)
{
    struct ttdi_tsnaps *v = *snaps;

    if (p->s.n != idx + 1)
        return 0;           /* not the walk's kept events: none kept */
    if (!v && !(v = *snaps = calloc(1, sizeof *v)))
        return TT_ENOMEM;
    if (v->n == v->cap && ttdi_grow(&v->v, &v->cap, v->n + 1, sizeof *v->v, 16) < 0)
        return TT_ENOMEM;
    tsnap *t = &v->v[v->n];
    t->run = run;
    t->th = th;
    t->idx = idx;
    t->s = p->s;
    if (!(t->s.st = malloc((p->s.nst + 1) * sizeof *t->s.st)))
        return TT_ENOMEM;
    memcpy(t->s.st, p->s.st, p->s.nst * sizeof *t->s.st);
    v->n++;
    return 0;
}

void ttdi_tpre_close(struct ttdi_tpre *p)
{
    if (p)
        free(p->s.st);
    free(p);
}

static void snaps_free(struct ttdi_tsnaps *v, size_t from)
{
    for (size_t i = from; v && i < v->n; i++)
        free(v->v[i].s.st);
    if (v)
        free(v->v);
    free(v);
}

int ttdi_tpre_take(struct ttdi_tsnaps **to, struct ttdi_tsnaps **from)
{
    struct ttdi_tsnaps *f = *from, *v = *to;
    size_t k = 0;
    int rc = 0;

    *from = NULL;
    if (!f || !f->n) {
        snaps_free(f, 0);
        return 0;
    }
    if (!v) {
        *to = f;
        return 0;
    }
    if (ttdi_grow(&v->v, &v->cap, v->n + f->n, sizeof *v->v, 16) < 0)
        rc = TT_ENOMEM;
    for (; rc >= 0 && k < f->n; k++)
        v->v[v->n++] = f->v[k];     /* s.st moves with it */
    snaps_free(f, k);
    return rc;
}

void ttdi_tpre_drop(ttdi_aligner *al)
{
    for (size_t i = 0; al->snaps && i < al->snaps->n; i++)
        free(al->snaps->v[i].s.st);
    if (al->snaps)
        free(al->snaps->v);
    free(al->snaps);
    al->snaps = NULL;
}

/* Start the scan s of run `run`'s thread th at the last mark with a
 * snapshot before kept index at (wk from that mark, s with its prefix
 * state): 1, 0 when there is none (nothing opened), or a TT_E* code. */
static int resume(const ttdi_aligner *al, int run, uint32_t th, uint64_t at, ttdi_walk *wk,
                  scan *s)
{
    const struct ttdi_tsnaps *v = ttdi_timing_nosnap || ttdi_timing_noprefix ? NULL : al->snaps;
    const tsnap *best = NULL;

    for (size_t i = 0; v && i < v->n; i++) {
        const tsnap *t = &v->v[i];
        if (t->run == run && t->th == th && t->idx < at && (!best || t->idx > best->idx))
            best = t;
    }
    int rc = best ? ttdi_walk_open_mark(wk, &al->r[run], th, best->idx) : 0;
    if (rc <= 0)
        return rc;
    memcpy(s->ring, best->s.ring, sizeof s->ring);
    memcpy(s->kr, best->s.kr, sizeof s->kr);
    s->nring = best->s.nring;
    s->n = best->s.n;
    s->last_ns = best->s.last_ns;
    s->enter_key = best->s.enter_key;
    s->leaf_key = best->s.leaf_key;
    s->leaf = best->s.leaf;
    s->ph = best->s.ph;
    s->php = best->s.php;
    s->deep = best->s.deep;
    s->nst = best->s.nst;
    memcpy(s->st, best->s.st, best->s.nst * sizeof *s->st);
    s->prev_ns = since_ns(&wk->ev);    /* the marked event: the last record */
    return 1;
}

/* The thread's next record at time t (the latest it can have been, so
 * a blocked time is never shortened): a blocking operation pending
 * blocked until then; its time goes to the candidates it counted for. */
static void unblocked(scan *s, uint64_t t)
{
    if (s->blk_at == UINT64_MAX)
        return;
    for (size_t j = 0; j < s->nc && s->c[j].lo <= s->blk_at; j++) {
        if (s->blk_at < s->c[j].hi && s->c[j].wait1 == s->blk_at + 1 && !s->c[j].w1ns)
            s->c[j].w1ns = t > s->blk_ns ? t - s->blk_ns : 1;
        if (s->blk_at < s->c[j].hi && t > s->blk_ns) {
            s->c[j].op_waits++;
            s->c[j].op_ns += t - s->blk_ns;
        }
    }
    s->blk_at = UINT64_MAX;
}

/* A blocking sync operation inside a candidate counts as a wait: a
 * condition wait, a join, a sleep or an I/O wait (libttcap records
 * usleep, nanosleep, poll... as SLEEP). */
static void sync_op(scan *s, const ttf_event *ev)
{
    if (ev->code != TTF_SOP_WAIT && ev->code != TTF_SOP_JOIN && ev->code != TTF_SOP_SLEEP)
        return;
    int cond = ev->code != TTF_SOP_SLEEP;   /* a sleep waits, it checks nothing */
    s->blk_ns = ev->time_ns;
    s->blk_at = s->n;
    if (ev->code == TTF_SOP_JOIN) {         /* recorded when it returned */
        s->blk_ns = s->prev_ns;
        unblocked(s, ev->time_ns);
    }
    for (size_t j = s->next; j < s->nc && s->c[j].lo <= s->n; j++) {
        s->c[j].waits += s->n < s->c[j].hi;
        if (s->n < s->c[j].hi && !s->c[j].wait1) {
            s->c[j].wait1 = s->n + 1;
            s->c[j].w1sleep = ev->code == TTF_SOP_SLEEP;
            s->c[j].w1arg = ev->sync_arg;
        }
        if (!cond)
            continue;   /* not the wait of a check-wait-check-again */
        s->c[j].blocked += s->c[j].lo < s->n && s->n < s->c[j].hi; /* between two of its events */
        s->c[j].pend |= s->c[j].nk && s->n < s->c[j].hi;
        if (s->c[j].lo == s->n && s->n < s->c[j].hi && s->leaf && !s->c[j].edge) {
            s->c[j].edge = 1;   /* check, then this wait, at its start */
            s->c[j].edge_key = s->leaf_key;
        }
    }
}

/* Scan thread th of run r for candidates c[0..nc), ascending; first: the
 * key index of the pair's first hunk on this side. */
static int scan_thread(const ttdi_aligner *al, int run, uint32_t th, cand *c, size_t nc,
                       uint64_t first)
{
    ttdi_run_state *r = &al->r[run];
    scan s;
    ttdi_walk wk;
    uint64_t key, end = 0, before = UINT64_MAX; /* the first candidate's start */
    int rc;

    memset(&s, 0, sizeof s);
    s.norm = &r->norm;
    s.cd = al->cd;
    s.c = c;
    s.nc = nc;
    s.cur = SIZE_MAX;
    s.blk_at = UINT64_MAX;
    s.enter_key = UINT64_MAX;
    if (!(s.st = malloc(STACK_MAX * sizeof *s.st)) ||
        !(s.hot = calloc(TTDI_KEYHOT, sizeof *s.hot))) {
        free(s.st);
        return TT_ENOMEM;
    }
    for (size_t j = 0; j < nc; j++) {
        end = c[j].hi + REPEAT_AFTER * 2 > end ? c[j].hi + REPEAT_AFTER * 2 : end;
        before = c[j].lo < before ? c[j].lo : before;
    }
    uint64_t at = first > TTDI_PIN_BACK && first - TTDI_PIN_BACK < before ? first - TTDI_PIN_BACK
                                                                           : before;
    if ((rc = resume(al, run, th, at, &wk, &s)) == 0)
        rc = ttdi_walk_open(&wk, r, th);    /* a run walk: it leaves marks */
    if (rc < 0) {
        free(s.st);
        free(s.hot);
        return rc;
    }
    wk.sleeps = 1;
    if (first > TTDI_PIN_BACK)  /* where the later walks of the split start */
        ttdi_walk_pin(&wk, first - TTDI_PIN_BACK);
    while (s.n <= end && (rc = ttdi_walk_next(&wk)) > 0) {
        if (s.blk_at != UINT64_MAX)
            unblocked(&s, ttf_event_late_ns(&wk.ev));  /* never shorter */
        if (wk.ev.kind == TTF_EV_SYNC_OP) {
            sync_op(&s, &wk.ev);
            s.prev_ns = wk.ev.time_ns;
            continue;
        }
        s.prev_ns = since_ns(&wk.ev);
        if ((rc = ttdi_norm_key_hot(s.norm, s.hot, &wk.ev, &key)) < 0)
            break;
        if (rc && s.n < before && !ttdi_timing_noprefix) {
            kept_before(&s, &wk.ev, key);
        } else if (rc) {
            __atomic_fetch_add(&ttdi_timing_full, 1, __ATOMIC_RELAXED);
            kept(&s, &wk.ev, key);
        }
        rc = 1;
    }
    if (rc > 0)     /* its calls counted: the count facts read it no more */
        rc = ttdi_walk_read_out(&wk);
    ttdi_walk_close(&wk);
    free(s.st);
    free(s.hot);
    return rc < 0 ? rc : 0;
}

/* Is candidate c a wait loop? Each function it enters repeats, or
 * returns at once while c blocks between two of its events, beside a
 * call that repeats; or, none repeating, every one returns at once and c
 * made a call after a blocking operation that came after a call: one
 * iteration of a wait loop that the other run did not need (check, wait,
 * check again: zstd's AIO_ReadPool_numReadsInFlight and the re-check
 * after the condition wait; a condition wait right before c's first event
 * counts as between when it came just after a call that returned at once
 * and c makes that call again, edge_again: the first check aligned with
 * the other run's). A call and then the wait with nothing after
 * it is not one (a worker that skipped a call before it waited); a wait
 * alone is (calls named like a wait that blocked inside: xz's worker
 * waiting for its first input in one run, its check inline; or a chain of
 * them, each named like a wait, nng's nni_plat_cv_wait calling
 * nni_pthread_cond_wait: a wait behind its wrappers, where any call not
 * named like a wait is still work);
 * and so are calls that return at once and repeat, inside a call named
 * like a wait (the loop that wait_for runs checked once more: poll_moves'
 * jobs_in_flight, alone when the aligner matched the rest of the
 * iteration elsewhere). */
static int wait_loop(const cand *c)
{
    uint64_t blocked = c->blocked + (uint64_t)c->edge_again;
    int repeats = 0, waits_only = blocked > 0, leaves = 1;

    if (c->many || !c->nk)
        return 0;
    int chain = blocked > 0 && c->waits > 0;
    for (size_t i = 0; i < c->nk; i++)
        chain &= c->k[i].waits;
    if (chain)
        return 1;   /* a wait alone behind wrappers, each named like a wait */
    for (size_t i = 0; i < c->nk; i++) {
        int rep = c->k[i].found || c->k[i].calls >= 2;
        if (!rep && (c->k[i].inner || !blocked))
            return 0;
        repeats |= rep;
        waits_only &= c->k[i].waits && !c->k[i].inner;
        leaves &= rep && !c->k[i].inner;
    }
    if (c->in_wait && leaves && c->in_blocked)
        return 1;   /* more checks of the loop a wait_for runs, which waited */
    if (!repeats && !c->between && !waits_only)
        return 0;
    return c->in_blocked || (c->waits && c->k[0].calls <= 2 * c->waits);
}

/* ---- a spin on a clock ---------------------------------------------------- */

/* 1 when the integer raw (type ty) read at trace time ns in run t is a
 * reading of that run's own clock (CLOCK_MONOTONIC or CLOCK_REALTIME) in
 * microseconds, milliseconds or seconds: the clock at the call, truncated
 * to the unit, give or take 1 s and 1% of the time since the trace began
 * (the trace's clock against the system's: a trace maps its clock to the
 * system's some ms off), a clock that reads at least 10^6 in that unit
 * (no input lands within a second of it by chance); its unit into *unit.
 * A coarse clock only: a reading in ns changes from call to call. */
static int clock_reading(const ttf_trace *t, const ttf_vtype *ty, uint64_t raw, uint64_t ns,
                         uint64_t *unit)
{
    static const uint64_t units[] = {1000, 1000000, 1000000000};
    uint64_t c[2] = {ttf_monotonic_ns(t, ns), ttf_realtime_ns(t, ns)};
    uint64_t slack = 1000000000 + ns / 100;

    if (!ty || (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED) || ty->size < 4)
        return 0;
    uint64_t v = ttf_value_norm(raw, ty);
    if (ty->cls == TTF_VC_SIGNED && (int64_t)v < 0)
        return 0;
    for (size_t k = 0; k < sizeof units / sizeof *units; k++) {
        uint64_t u = units[k];
        if (v > UINT64_MAX / u - u - slack)
            continue;
        for (int j = 0; j < 2; j++)
            if (c[j] / u >= 1000000 && v * u <= c[j] + slack && v * u + u + slack >= c[j]) {
                *unit = u;
                return 1;
            }
    }
    return 0;
}

/* The values of kept event ev (ENTER: its parameters' registers; EXIT:
 * its result) hashed into *h, its signature into *sig: 1, 0 when they
 * are not known (no values, no signature: nothing proves them equal). */
static int event_values(ttdi_norm *n, const ttf_event *ev, const ttf_signature **sig,
                        uint64_t *h)
{
    uint64_t x = 0xcbf29ce484222325ull ^ ev->addr ^ (uint64_t)ev->kind;

    if (!ev->has_values || ttf_sym_signature(n->sym, ev, sig) != 0 || !*sig)
        return 0;
    if (ev->kind == TTF_EV_EXIT) {
        uint64_t raw = 0;
        if ((*sig)->ret.cls != TTF_VC_VOID && !ttf_value_ret(*sig, ev, &raw))
            return 0;
        *h = (x ^ raw) * 0x100000001B3ull;
        return 1;
    }
    for (size_t k = 0; k < (*sig)->nparams; k++) {
        const ttf_param *pm = &(*sig)->params[k];
        if (pm->reg < 0 && pm->reg2 < 0)
            return 0;   /* in memory: not recorded */
        x = (x ^ (pm->reg >= 0 ? ev->argregs[pm->reg] : 0)) * 0x100000001B3ull;
        x = (x ^ (pm->reg2 >= 0 ? ev->argregs[pm->reg2] : 0)) * 0x100000001B3ull;
    }
    *h = x;
    return 1;
}

/* One iteration's values while the window is read. */
typedef struct spinv {
    uint64_t h[SPIN_P];     /* per key of the iteration: its values' hash */
    uint64_t clk;           /* bit k: key k is the EXIT of a call whose
                               result read as the run's clock */
    uint64_t turned;        /* bit k: that reading rose once already */
    uint64_t ret[SPIN_P];   /* ... the reading */
    uint64_t unit[SPIN_P];  /* ... its unit (ns) */
} spinv;

/* Key k of the first iteration (event ev, values hash h, signature sig). */
static void spin_first(const ttf_trace *t, spinv *v, size_t k, const ttf_event *ev,
                       const ttf_signature *sig, uint64_t h)
{
    uint64_t raw = 0, u = 0;

    v->h[k] = h;
    if (ev->kind == TTF_EV_EXIT && ttf_value_ret(sig, ev, &raw) &&
        clock_reading(t, &sig->ret, raw, ev->time_ns, &u)) {
        v->clk |= 1ull << k;
        v->ret[k] = raw;
        v->unit[k] = u;
    }
}

/* Key k of a later iteration: 1 when its values are those of the same key
 * one iteration before, or it is a clock reading that rose for the first
 * time (the clock turned: the spin's end). */
static int spin_next(const ttf_trace *t, spinv *v, size_t k, const ttf_event *ev,
                     const ttf_signature *sig, uint64_t h)
{
    uint64_t raw = 0, u = 0, bit = 1ull << k;

    if (h == v->h[k])
        return 1;
    if (!(v->clk & bit) || (v->turned & bit) || !ttf_value_ret(sig, ev, &raw) ||
        ttf_value_norm(raw, &sig->ret) <= ttf_value_norm(v->ret[k], &sig->ret) ||
        !clock_reading(t, &sig->ret, raw, ev->time_ns, &u) || u != v->unit[k])
        return 0;
    v->turned |= bit;
    v->h[k] = h;
    v->ret[k] = raw;
    return 1;
}

/* Is candidate c (run `run`'s thread th; c->spin_p found by periods) a
 * spin on a clock, by its values? Its window, the extra iterations and
 * one more around them, is read again with values: every value (each
 * parameter's register, each result) of every key equals the same key's
 * one iteration before, but for calls whose result reads as the run's own
 * coarse clock (clock_reading), whose reading may rise once, and must rise
 * once in the window or in the iteration after it: the clock turned, and
 * the loop left. Iterations that saw nothing new but a clock that did not
 * move made no progress: the loop spun until the clock turned, as often
 * as the machine was fast (nng's nni_aio_expire_loop
 * rescanning until the millisecond passes). A worker that stamps each
 * item with the time reads other items (other values) and is not one;
 * nor a loop with no clock reading (padding written one character at a
 * time: the count is the program's), nor one whose clock did not turn
 * where it left (a worker that stamps items taken into one buffer it
 * reuses, the same pointer each time: it ran out of items, not of the
 * millisecond). 1 with its evidence in *out, 0 if not, or a TT_E* code. */
static int spin_proof(const ttdi_aligner *al, int run, uint32_t th, const cand *c,
                      ttdi_spin *out)
{
    ttdi_run_state *r = &al->r[run];
    uint64_t p = c->spin_p, x = c->spin_x, y = c->spin_y;
    spinv *v = calloc(1, sizeof *v);
    ttdi_walk w;
    int rc, ok = 1;
    uint64_t seen = 0;

    if (!v)
        return TT_ENOMEM;
    if ((rc = ttdi_walk_open_at(&w, r, th, x, c->t0, 0)) < 0) {
        free(v);
        return rc;
    }
    if ((rc = ttdi_walk_values_from(&w, x)) < 0)
        ok = 0;
    while (ok && (rc = ttdi_walk_next(&w)) > 0) {
        if (!w.kept || w.idx < x)
            continue;
        if (w.idx >= y + p)
            break;
        const ttf_signature *sig = NULL;
        uint64_t h = 0, k = (w.idx - x) % p;
        if (w.idx >= y) {   /* the iteration after: did its clock turn? */
            if (v->clk >> k & 1 && event_values(&r->norm, &w.ev, &sig, &h))
                (void)spin_next(r->t, v, (size_t)k, &w.ev, sig, h);
            continue;
        }
        if (w.ev.kind != TTF_EV_ENTER && w.ev.kind != TTF_EV_EXIT) {
            ok = 0;     /* a message or a mark: not a call's values */
            break;
        }
        if (!event_values(&r->norm, &w.ev, &sig, &h))
            ok = 0;
        else if (w.idx < x + p)
            spin_first(r->t, v, (size_t)k, &w.ev, sig, h);
        else
            ok = spin_next(r->t, v, (size_t)k, &w.ev, sig, h);
        if (ok && w.idx < x + p && (v->clk >> k & 1) && !out->clock) {
            out->clock = ttdi_norm_func(&r->norm, &w.ev);
            out->value = v->ret[k];
            out->unit_ns = v->unit[k];
        }
        seen++;
    }
    ttdi_walk_close(&w);
    if (rc < 0) {
        free(v);
        return rc;
    }
    ok = ok && seen == y - x && v->clk && v->turned;
    free(v);
    if (ok) {
        out->iters = (c->hi - c->lo) / p;
        out->keys = p;
    }
    return ok;
}

/* 1: candidate c may be a spin: one run alone has it, it is whole
 * iterations of the loop beside it (periods), it recorded no wait (else
 * it is a wait loop or a divergence), in code that did not change. */
static int spin_shaped(const cand *c)
{
    return c->spin_p && c->lone && !c->empty && !c->expected && !c->in_changed && !c->waits &&
           !c->blocked && !c->op_waits && !c->in_blocked;
}

/* 1: candidate c is a lock's own slow path: one run alone has it, it
 * is whole calls, every function it enters and the call it sits in read
 * as lock wrappers (ttdi_lock_wrapper), in code that did not change
 * between the builds. A mutex takes its slow path (a futex wait or wake,
 * a spin) when another thread holds or wants it at that instant: that
 * says how the threads were timed, not what the program did (glib's
 * g_mutex_unlock calling g_mutex_unlock_slowpath in one of two good
 * runs). A lock the program itself took once more is not one: its
 * enclosing call is the program's. The caller also wants another thread
 * of that run alive at the time (others_alive). */
static int contended(const cand *c)
{
    if (c->many || !c->nk || !c->lone || c->empty || !c->in_lock || c->in_changed ||
        c->topbad || !c->ntop)
        return 0;
    for (size_t i = 0; i < c->nk; i++)
        if (!c->k[i].lock)
            return 0;
    return 1;
}

/* 1: a thread of run t other than th was alive at ns: it had started
 * and not yet ended. A slow path needs another thread holding or
 * wanting the lock at that instant; with none there, the lock's other
 * path is the program's doing (a lock taken twice, a trylock that
 * failed on its own holder), not timing. */
static int others_alive(const ttf_trace *t, uint32_t th, uint64_t ns)
{
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        const ttf_thread *o = ttf_get_thread(t, i);
        if (i != th && o->start_ns <= ns && (!o->ended || o->end_ns >= ns))
            return 1;
    }
    return 0;
}

/* 1: the bad thread of p ended its process (it called exit: the END
 * record is in its stream) and the good thread did not. */
static int exits_alone(const ttdi_aligner *al, const ttdi_ipair *p)
{
    const ttf_process *g = ttf_get_process(al->r[TTD_GOOD].t);
    const ttf_process *b = ttf_get_process(al->r[TTD_BAD].t);

    return b && b->exit_thread == (int64_t)p->t[1] && (!g || g->exit_thread != (int64_t)p->t[0]);
}

/* 1: the bad run was ended from outside (no clean end recorded, no
 * crash: killed, a hang's time-out) and the good run exited. */
static int killed_run(const ttdi_aligner *al)
{
    const ttf_process *g = ttf_get_process(al->r[TTD_GOOD].t);
    const ttf_process *b = ttf_get_process(al->r[TTD_BAD].t);
    const ttf_summary *sb = ttf_get_summary(al->r[TTD_BAD].t);

    return g && b && g->exited && !b->exited && !sb->closed && !sb->crashed;
}

/* The hunks of p that may be timing: not where the bad run crashed, and
 * not the end of a bad thread that ended the process by itself (exited:
 * its loop stopped because it decided so, not because it was timed
 * differently) or that was stopped by the run's kill (the good run's
 * iterations past it are what the bad run never got to, a hang's work
 * never done, not a loop that waited more times). Their non-empty sides
 * s (0 good, 1 bad) into c. An expected hunk (it varies between the good runs too, which is what the
 * report says of it) is judged a wait loop or not only: counts.c asks
 * whether a count the good runs happened to share moved by waiting. */
static size_t candidates(const ttdi_ipair *p, int exited, int s, cand *c)
{
    size_t n = 0;

    for (size_t i = 0; i < p->nh; i++) {
        const ttdi_hunk *h = &p->h[i];
        uint64_t lo = s ? h->b0 : h->a0, hi = s ? h->b1 : h->a1;
        if (hi - lo > SIDE_MAX)
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
        c[n].empty = lo == hi;
        c[n].lone = s ? h->a1 == h->a0 : h->b1 == h->b0;
        c[n].expected = p->exp && p->exp[i];
        for (uint64_t k = 1; !c[n].empty && c[n].lone && !c[n].expected && k <= SPIN_P; k++)
            if (k <= hi - lo && (hi - lo) % k == 0)
                c[n].plive |= 1ull << (k - 1);
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

/* Do the whole calls of candidate b (its own level) hold a copy of
 * hash x, and else only copies of y or calls that return at once and
 * repeat? 1 if so (with a copy of x), 2 (with a copy of y only), else 0. */
static int attempts(cand *b, uint64_t x, uint64_t y)
{
    int sx = 0, sy = 0;

    if (b->topbad || !b->ntop)
        return 0;
    for (unsigned t = 0; t < b->ntop; t++) {
        if (b->top[t] == x) {
            sx = 1;
            continue;
        }
        if (b->top[t] == y) {
            sy = 1;
            continue;
        }
        fkey *f = fk_find(b, b->topkey[t]);
        if (!b->topleaf[t] || !f || !(f->found || f->calls >= 2))
            return 0;
    }
    return sx ? 1 : sy ? 2 : 0;
}

/* Candidate of side y of hunk b if b is one-sided there (side !y empty)
 * and not a retry already, else NULL. */
static cand *y_only(const ttdi_ipair *p, cand *cs[2], size_t *ix[2], int y, size_t b)
{
    int x = !y;

    if (p->tim[b] == TTD_TIMING_RETRY || ix[x][b] == SIZE_MAX || ix[y][b] == SIZE_MAX)
        return NULL;
    if (!cs[x][ix[x][b]].empty || cs[y][ix[y][b]].empty)
        return NULL;
    return &cs[y][ix[y][b]];
}

/* Mark the hunks after a (within RETRY_NEAR) that only run y has and
 * whose whole calls copy the attempt that did the work (hash xh: pass 0,
 * the first such hunk) or, once one did, y's failed attempt (yh: pass 1,
 * all of them). 1 if one copied xh. */
static int retry_level(ttdi_ipair *p, cand *cs[2], size_t *ix[2], int y, size_t a,
                       uint64_t xh, uint64_t yh)
{
    int got = 0;

    for (int pass = 0; pass < 2; pass++)
        for (size_t b = a + 1; b < p->nh && b <= a + RETRY_NEAR; b++) {
            cand *cb = y_only(p, cs, ix, y, b);
            int t = cb ? attempts(cb, xh, yh) : 0;
            if ((t == 1 && !pass && !got) || (t == 2 && pass && got)) {
                p->tim[b] = TTD_TIMING_RETRY;
                got = 1;
            }
        }
    return got;
}

/* Retried attempts, in pair p (candidates cs[s], by hunk in ix[s]): a
 * hunk A that one run (X) alone has inside a call (an attempt that did
 * its work: POOL_tryAdd adding the job) whose counterpart in the other run
 * (Y) did not (the queue was full), and a later hunk B that Y alone has
 * holding a whole copy of X's call: Y made the attempt again and did the
 * same work then. Both are timing (TTD_TIMING_RETRY), and so are Y's
 * other extra attempts between, copies of its failed one. Each B beside
 * the copies may hold only calls that return at once and repeat (the
 * check of the attempt's result); it may have been taken for a wait loop
 * already (the attempts repeat, and the retry waited). The enclosing
 * calls of A are tried from the innermost, ANC of them. Looked for within
 * RETRY_NEAR hunks. */
static void retry_at(ttdi_ipair *p, cand *cs[2], size_t *ix[2], int x, size_t a)
{
    int y = !x;

    if (p->tim[a] || ix[x][a] == SIZE_MAX || ix[y][a] == SIZE_MAX)
        return;
    const cand *ca = &cs[x][ix[x][a]], *cy = &cs[y][ix[y][a]];
    if (ca->empty || !cy->empty)
        return;
    unsigned known = ca->ancok & cy->ancok;
    for (unsigned k = 0; k < ANC && !p->tim[a]; k++)
        if ((known >> k & 1) && ca->anc[k] != cy->anc[k] &&
            retry_level(p, cs, ix, y, a, ca->anc[k], cy->anc[k]))
            p->tim[a] = TTD_TIMING_RETRY;
}

static void retry(ttdi_ipair *p, cand *cs[2], size_t *ix[2])
{
    for (int x = 0; x < 2; x++)
        for (size_t a = 0; a < p->nh; a++)
            retry_at(p, cs, ix, x, a);
}

/* Does b hold every whole call of a (its own level), each as a distinct
 * whole call of b (at b's level or one below) that began at or after b's
 * first blocking operation, an I/O wait that ended before its timeout
 * (woken by what it waited for), and is every call in b of a function not
 * entered before it inside one of those copies? */
static int later_copy(const cand *a, const cand *b)
{
    uint8_t used[TOP_MAX + DEEP_MAX] = {0};

    if (b->freshbad || b->hi - b->lo > LATER_MAX || !b->wait1)
        return 0;
    if (!b->w1sleep || !b->w1arg || !b->w1ns || b->w1ns >= b->w1arg)
        return 0;   /* no I/O wait, a sleep, or one that ran to its timeout */
    for (unsigned t = 0; t < a->ntop; t++) {
        unsigned u = 0, n = b->ntop + b->ndeep;
        for (; u < n; u++) {
            int top = u < b->ntop;
            uint64_t h = top ? b->top[u] : b->deep[u - b->ntop];
            uint64_t at = top ? b->topat[u] : b->deepat[u - b->ntop];
            if (!used[u] && h == a->top[t] && at + 1 >= b->wait1)
                break;
        }
        if (u == n)
            return 0;
        used[u] = 1;
    }
    for (unsigned f = 0; f < b->nfresh; f++) {
        unsigned u = b->ntop;   /* a new function only inside a copy */
        while (u < b->ntop + b->ndeep && !(used[u] && b->deepat[u - b->ntop] <= b->fresh[f] &&
                                           b->fresh[f] < b->deepend[u - b->ntop]))
            u++;
        if (u == b->ntop + b->ndeep)
            return 0;
    }
    return 1;
}

/* Work found one wait later, in pair p: a hunk A that run X alone has,
 * whole calls only (uv__io_poll(loop, 0) found the worker's completion
 * through epoll at once: uv__async_io and what it ran), and a later hunk
 * B that run Y alone has (only timing-shaped hunks between; B may be a
 * wait loop itself), holding a whole copy of each of A's calls after an
 * I/O wait it recorded that ended before its timeout, its other calls
 * repeating calls made before it (one more turn of the loop that waited:
 * uv_run's iteration whose epoll_wait blocked until the completion
 * came). The attempt that did the work at once in X found
 * nothing in Y, which made it again later and did the same work then:
 * both hunks are TTD_TIMING_RETRY. Looked for within RETRY_NEAR hunks. */
static void later_at(ttdi_ipair *p, cand *cs[2], size_t *ix[2], int x, size_t a)
{
    int y = !x;

    if (p->tim[a] || ix[x][a] == SIZE_MAX || ix[y][a] == SIZE_MAX)
        return;
    const cand *ca = &cs[x][ix[x][a]];
    if (ca->empty || !cs[y][ix[y][a]].empty || ca->topbad || !ca->ntop || ca->many)
        return;
    for (size_t b = a + 1; b < p->nh && b <= a + RETRY_NEAR; b++) {
        cand *cb = y_only(p, cs, ix, y, b);
        if (cb && (!p->tim[b] || p->tim[b] == TTD_TIMING_WAIT) && later_copy(ca, cb)) {
            p->tim[a] = p->tim[b] = TTD_TIMING_RETRY;
            return;
        }
        if (!p->tim[b])
            return;     /* a divergence between them */
    }
}

static void later(ttdi_ipair *p, cand *cs[2], size_t *ix[2])
{
    for (int x = 0; x < 2; x++)
        for (size_t a = 0; a < p->nh; a++)
            later_at(p, cs, ix, x, a);
}

/* Judge pair pi: a hunk is a wait loop when each of its sides that has
 * events is one (a loop that ran more times in one run, or an iteration
 * aligned against another), or a retried attempt (retry); its other
 * one-sided hunks go to m (room for its hunks), for the moved-work
 * match. */
/* One side's scan of judge_pair, in ttdi_both: it reads and writes only
 * that run's state (its walks' marks) and its own candidates. */
typedef struct scan_job {
    const ttdi_aligner *al;
    int run;
    uint32_t th;
    cand *c;
    size_t nc;
    uint64_t first;
} scan_job;

uint64_t ttdi_timing_jobs_apart;

static int scan_one(void *arg)
{
    const scan_job *j = arg;

    if (!j->nc)
        return 0;
    if (ttdi_job_apart)
        __atomic_fetch_add(&ttdi_timing_jobs_apart, 1, __ATOMIC_RELAXED);
    return scan_thread(j->al, j->run, j->th, j->c, j->nc, j->first);
}

/* Candidate c of side s of pair p, spin-shaped: a spin on a clock when
 * its values prove it (spin_proof), its evidence kept (p->spin). 0 or a
 * TT_E* code. */
static int spin_at(const ttdi_aligner *al, ttdi_ipair *p, int s, const cand *c)
{
    ttdi_spin sp;

    memset(&sp, 0, sizeof sp);
    if (!ttf_get_summary(al->r[s].t)->values)
        return 0;
    int rc = spin_proof(al, s, p->t[s], c, &sp);
    if (rc <= 0)
        return rc;
    if (!p->spin && !(p->spin = calloc(p->nh, sizeof *p->spin)))
        return TT_ENOMEM;
    p->spin[c->hunk] = sp;
    p->tim[c->hunk] = TTD_TIMING_SPIN;
    return 0;
}

static int judge_pair(ttdi_aligner *al, size_t pi, mv *m, size_t *nm)
{
    ttdi_ipair *p = &al->s->ip[pi];
    cand *cs[2] = {malloc((p->nh + 1) * sizeof **cs), malloc((p->nh + 1) * sizeof **cs)};
    size_t *ix[2] = {malloc((p->nh + 1) * sizeof **ix), malloc((p->nh + 1) * sizeof **ix)};
    size_t nc[2] = {0, 0};
    uint8_t *ok = calloc(p->nh + 1, 1);
    int rc = cs[0] && cs[1] && ix[0] && ix[1] && ok ? 0 : TT_ENOMEM;

    int exited = exits_alone(al, p) || killed_run(al);

    for (int s = 0; s < 2 && rc >= 0; s++) {
        for (size_t i = 0; i < p->nh; i++)
            ix[s][i] = SIZE_MAX;
        nc[s] = candidates(p, exited, s, cs[s]);
    }
    if (rc >= 0) {      /* each run's split thread by a thread of its own */
        scan_job sj[2] = {{al, 0, p->t[0], cs[0], nc[0], p->h[0].a0},
                          {al, 1, p->t[1], cs[1], nc[1], p->h[0].b0}};
        int src[2];
        ttdi_both(al->o->jobs != 1 && nc[0] && nc[1], scan_one, &sj[0], &sj[1], src);
        rc = src[0] < 0 ? src[0] : src[1];
    }
    for (int s = 0; s < 2 && rc >= 0; s++) {
        for (size_t j = 0; j < nc[s]; j++) {
            ix[s][cs[s][j].hunk] = j;
            if (!cs[s][j].empty && !cs[s][j].in_changed && wait_loop(&cs[s][j]))
                ok[cs[s][j].hunk] |= (uint8_t)(1u << s);
            else if (!cs[s][j].expected && contended(&cs[s][j]) &&
                     others_alive(al->r[s].t, p->t[s], cs[s][j].t0))
                p->tim[cs[s][j].hunk] = TTD_TIMING_CONTENDED;
            else if (al->values && spin_shaped(&cs[s][j]) &&
                     (rc = spin_at(al, p, s, &cs[s][j])) < 0)
                break;
            if (cs[s][j].expected)
                ix[s][cs[s][j].hunk] = SIZE_MAX;    /* judged, no more */
        }
    }
    for (size_t i = 0; rc >= 0 && i < p->nh; i++) {
        unsigned need = (p->h[i].a1 > p->h[i].a0) | (unsigned)(p->h[i].b1 > p->h[i].b0) << 1;
        if (need && ok[i] == need)
            p->tim[i] = TTD_TIMING_WAIT;
        for (int s = 0; need && ok[i] == need && s < 2; s++) {
            const cand *c = ix[s][i] != SIZE_MAX ? &cs[s][ix[s][i]] : NULL;
            int ops = c && c->op_waits >= c->call_waits;
            p->waitns[2 * i] += !c ? 0 : ops ? c->op_waits : c->call_waits;
            p->waitns[2 * i + 1] += !c ? 0 : ops ? c->op_ns : c->call_ns;
        }
    }
    if (rc >= 0)
        retry(p, cs, ix);
    if (rc >= 0)
        later(p, cs, ix);
    for (int s = 0; s < 2 && rc >= 0; s++)
        for (size_t j = 0; j < nc[s]; j++) {
            const cand *c = &cs[s][j];
            const ttdi_hunk *h = &p->h[c->hunk];
            int other = s ? h->a1 > h->a0 : h->b1 > h->b0;
            if (!c->empty && !other && !p->tim[c->hunk] && !c->expected)
                m[(*nm)++] = (mv){c->hash, pi, c->hunk, s};
        }
    for (int s = 0; s < 2; s++) {
        free(cs[s]);
        free(ix[s]);
    }
    free(ok);
    return rc;
}

/* Moved work: equal one-sided hunks, good-only in one pair and bad-only
 * in another, each used once. */
static void moved(ttdi_aligner *al, mv *m, size_t n)
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
            al->s->ip[m[g].pair].tim[m[g].hunk] = TTD_TIMING_MOVED;
            al->s->ip[m[k].pair].tim[m[k].hunk] = TTD_TIMING_MOVED;
            m[k].hash = 0; /* used */
        }
    }
}

/* Calls still open when thread th of t stops (a raw walk: ENTERs minus
 * EXITs, never below 0), or a TT_E* code. Read only for a thread that
 * may have been cut short. */
static int64_t open_at_end(const ttf_trace *t, uint32_t th)
{
    ttdi_walk w;
    int64_t depth = 0;
    int rc = ttdi_walk_raw(&w, t, th);

    while (rc >= 0 && (rc = ttdi_walk_next(&w)) == 1)
        depth += w.ev.kind == TTF_EV_ENTER ? 1 : w.ev.kind == TTF_EV_EXIT && depth > 0 ? -1 : 0;
    ttdi_walk_close(&w);
    return rc < 0 ? rc : depth;
}

/* 1 when some thread of t joined thread th (0 if none did, or on an
 * error): a thread the program waits for is no detached thread the exit
 * may cut. */
static int joined(const ttf_trace *t, uint32_t th)
{
    size_t nt = ttf_thread_count(t);
    uint8_t *j = th < nt ? calloc(nt, 1) : NULL;
    int yes = j && ttdi_joined_threads(t, j, nt) == 0 && j[th];

    free(j);
    return yes;
}

/* The last hunk of pair i when it is only the end of one thread that the
 * process exit cut short: one-sided, at the end of both threads, the
 * shorter thread never ended (no END: it was still running at the exit,
 * a detached thread) and stopped inside calls (it was cut in the middle
 * of its work, not idle after it), no run joined the thread (a thread one
 * run waits for and the other does not is pbzip2's writer detached by
 * mistake: a divergence), and both processes exited cleanly with one
 * status. */
static void cut_by_exit(ttdi_aligner *al, size_t i)
{
    ttdi_ipair *p = &al->s->ip[i];
    const ttf_process *pr[2] = {ttf_get_process(al->r[TTD_GOOD].t),
                                ttf_get_process(al->r[TTD_BAD].t)};

    if (!p->nh || p->crash != UINT64_MAX || !pr[0] || !pr[1] || !pr[0]->exited ||
        !pr[1]->exited || pr[0]->exit_status != pr[1]->exit_status)
        return;
    const ttdi_hunk *h = &p->h[p->nh - 1];
    int s = h->a0 == h->a1 ? 0 : h->b0 == h->b1 ? 1 : -1;   /* the shorter side */
    if (s < 0 || h->a1 != p->n[0] || h->b1 != p->n[1] || (p->exp && p->exp[p->nh - 1]))
        return;
    const ttf_thread *th = ttf_get_thread(al->r[s].t, p->t[s]);
    if (th && !th->ended && pr[s]->exit_thread != (int64_t)p->t[s] &&
        open_at_end(al->r[s].t, p->t[s]) > 0 && !joined(al->r[0].t, p->t[0]) &&
        !joined(al->r[1].t, p->t[1]))
        p->tim[p->nh - 1] = TTD_TIMING_CUT;
}

int ttdi_timing_mark(ttdi_aligner *al)
{
    size_t total = 0, nm = 0;
    int rc = 0;
    int one = ttf_thread_count(al->r[TTD_GOOD].t) <= 1 && ttf_thread_count(al->r[TTD_BAD].t) <= 1;

    for (size_t i = 0; i < al->s->nip; i++) {
        ttdi_ipair *p = &al->s->ip[i];
        total += p->nh;
        if (p->nh && !(p->tim = calloc(p->nh, 1)))
            return TT_ENOMEM;
        if (p->nh && !(p->waitns = calloc(2 * p->nh, sizeof *p->waitns)))
            return TT_ENOMEM;
    }
    mv *m = malloc((total + 1) * sizeof *m);
    if (!m)
        return TT_ENOMEM;
    for (size_t i = 0; i < al->s->nip && rc >= 0 && !one; i++)
        if (al->s->ip[i].nh)
            rc = judge_pair(al, i, m, &nm);
    for (size_t i = 0; i < al->s->nip && rc >= 0 && !one; i++)
        if (al->s->ip[i].nh && !al->s->ip[i].tim[al->s->ip[i].nh - 1])
            cut_by_exit(al, i);
    if (rc >= 0)
        moved(al, m, nm);
    free(m);
    return rc;
}
