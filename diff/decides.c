/*
 * decides.c - which check's value decided a check-then-act (issue 33
 * item 4): of the lock-free calls between a caller's last locking call
 * and the act (races.c's candidate checks), the check is the one whose
 * result the branch used, not busy work that happens to sit nearer the
 * act. Stage 3 explain of diff/STAGES (its header: resolve.h).
 *
 * Design. The trace shows no branch, but in values mode every call's
 * return value is there, and so is what the caller did next: a branch
 * that used a value takes the act for some values and not for others.
 * So races.c's walk notes, for each candidate check as it leaves the
 * caller's stretch, the class of the value it returned (zero, positive,
 * negative) and what followed: the act that opened its window, or none
 * (the caller returned, called the same function again, or the stretch
 * filled up before any lock was taken). A check decides an act when the
 * classes it returned before that act and those it returned before
 * anything else (no act, or another act) are both seen and never meet:
 * `while (tickets_left(s) > 0) { busy(); take(s); }` gives tickets_left
 * "positive" before take and "zero" before the loop's end, while busy,
 * called only on the way to the act, was never followed by anything else
 * (and a value that varies with the work meets itself on both sides).
 * Nothing is decided without both outcomes seen: the rule says "unknown"
 * and the ranking keeps its order.
 *
 * The classes are kept for each width a return type can have (1, 2, 4, 8
 * bytes, sign-extended), since a register's upper bytes are not the
 * function's value (an int's -1 is 0x00000000ffffffff in rax); the query
 * reads the width and signedness of the function's declared return type
 * (unsigned and pointer types: never negative).
 *
 * Cost. One probe of a fixed table per candidate check leaving a stretch
 * with a recorded value (nothing in plain mode); queries scan the table,
 * once per race with rivals.
 */
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

#define DEC_CAP 4096        /* (caller, check, act) triples kept */

/* One (caller, check, act) triple: the value classes seen. */
typedef struct dslot {
    uint64_t key;           /* hash of the triple, never 0; 0: free slot */
    uint64_t caller, check, act;
    uint16_t cls;           /* bit 3*w + c: width w (1, 2, 4, 8 bytes),
                               class c (0 zero, 1 positive, 2 negative) */
} dslot;

struct ttdi_dec {
    dslot s[DEC_CAP];
};

int ttdi_dec_open(struct ttdi_dec **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : TT_ENOMEM;
}

void ttdi_dec_free(struct ttdi_dec *d)
{
    free(d);
}

static uint64_t triple_key(uint64_t caller, uint64_t check, uint64_t act)
{
    uint64_t k = ttfi_mix64(caller ^ ttfi_mix64(check ^ ttfi_mix64(act)));
    return k ? k : 1;
}

/* The class bits of v at each width. */
static uint16_t classes(uint64_t v)
{
    uint16_t bits = 0;

    for (unsigned w = 0; w < 4; w++) {
        unsigned sh = 64 - 8 * (1u << w);
        int64_t x = (int64_t)(v << sh) >> sh;
        bits |= (uint16_t)(1u << (3 * w + (x == 0 ? 0 : x > 0 ? 1 : 2)));
    }
    return bits;
}

void ttdi_dec_note(struct ttdi_dec *d, uint64_t caller, uint64_t check, uint64_t act,
                   uint64_t ret)
{
    uint64_t k = triple_key(caller, check, act);
    int fresh;
    dslot *s = d ? ttdi_probe(d->s, DEC_CAP, sizeof *s, (size_t)k, k, 1, &fresh) : NULL;

    if (!s)
        return;             /* full: these go unseen */
    if (fresh) {
        s->caller = caller;
        s->check = check;
        s->act = act;
    }
    if (s->caller == caller && s->check == check && s->act == act)
        s->cls |= classes(ret);
}

/* The classes (bit 0 zero, 1 positive, 2 negative) at the width of a
 * type of size bytes (unsigned: negative reads positive). */
static unsigned at_width(uint16_t cls, unsigned size, int is_signed)
{
    unsigned w = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
    unsigned c = (cls >> (3 * w)) & 7u;

    return is_signed ? c : (c & 1u) | ((c & 6u) ? 2u : 0u);
}

int ttdi_dec_decides(const struct ttdi_dec *d, uint64_t caller, uint64_t check, uint64_t act,
                     unsigned size, int is_signed, unsigned cls[2])
{
    unsigned here = 0, else_ = 0;

    for (size_t i = 0; d && i < DEC_CAP; i++) {
        const dslot *s = &d->s[i];
        if (!s->key || s->caller != caller || s->check != check)
            continue;
        if (s->act == act)
            here |= at_width(s->cls, size, is_signed);
        else
            else_ |= at_width(s->cls, size, is_signed);
    }
    cls[0] = here;
    cls[1] = else_;
    if (!here || !else_)
        return -1;
    return (here & else_) == 0;
}

const char *ttdi_dec_class_text(unsigned cls)
{
    static const char *const t[8] = {"nothing", "zero", "a positive value",
                                     "zero or a positive value", "a negative value",
                                     "zero or a negative value", "a non-zero value",
                                     "any value"};
    return t[cls & 7u];
}
