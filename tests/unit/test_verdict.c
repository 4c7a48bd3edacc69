/*
 * test_verdict.c - the verdict's confidence (diff/verdict.c, issue 33
 * item 5) on hand-made results: "likely" only where two independent
 * pieces of evidence agree on the cause itself. Code changed between two
 * builds: the diverging frame whose own source changed is likely; a frame
 * whose machine code only carries a change made elsewhere (its source is
 * the same) is not; a code-changed suspect that only returned before the
 * split is not made likely by another suspect's place (the frame's), but
 * is when it is the only changed function of the program. With no source
 * read, a changed function on the way is likely only when it is the only
 * changed one (its clones and cold part with it): code inlined from one
 * changed source changes every function it is inlined into. Plain mode's
 * answer (the call whose answer the split's branch came right after)
 * heads the verdict as "answer", "possible", and yields to what the
 * verdict weighed above the bare split before it: a race on the path to
 * the symptom, a count every passing run agrees on. The places the
 * verdict names carry their thread's label: "#3 app" when another pair's
 * thread is also "app", the bare name when none is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"

#define SRC_CHANGED "its source and machine code differ between the two builds"

/* A result whose first divergence has suspects s[0..n) (pair 0) and whose
 * builds differ in the functions changed[0..nch). */
typedef struct hand {
    ttd_result r;
    ttd_divergence d;
    ttd_pair pair;
    ttd_frame frame;
    ttd_suspect s[3];
    ttd_evidence ev[3][2];
    ttd_code_change ch[3];
} hand;

static void suspect(hand *h, size_t i, const char *name, int role, double code_w,
                    const char *code_text)
{
    ttd_suspect *s = &h->s[i];
    size_t n = 0;

    s->name = name;
    s->role = role;
    if (code_w > 0)
        h->ev[i][n++] = (ttd_evidence){TTD_EV_CODE, code_w, code_text};
    if (role == TTD_SUSPECT_FRAME)
        h->ev[i][n++] = (ttd_evidence){TTD_EV_FRAME, 3.0, "the diverging frame: its calls "
                                                         "differ here"};
    for (size_t k = 0; k < n; k++)
        s->score += h->ev[i][k].weight;
    s->evidence = h->ev[i];
    s->nevidence = n;
}

static void setup(hand *h, size_t nsus, const char *const *changed, size_t nch)
{
    h->pair.good.name = h->pair.bad.name = "main";
    h->frame = (ttd_frame){0};
    h->frame.name = h->s[0].name;
    h->d.stack = &h->frame;
    h->d.nstack = 1;
    h->d.suspects = h->s;
    h->d.nsuspects = nsus;
    h->r.first = &h->d;
    h->r.diverged = 1;
    h->r.pairs = &h->pair;
    h->r.npairs = 1;
    h->r.code_compared = 1;
    for (size_t i = 0; i < nch; i++)
        h->ch[i] = (ttd_code_change){changed[i], "prog", TTD_CODE_CHANGED, 0};
    h->r.changed_functions = h->ch;
    h->r.nchanged_functions = nch;
}

/* The verdict's cause function and confidence. */
static int verdict_of(hand *h, const char **cause)
{
    struct ttfi_arena a = {0};
    const ttd_verdict *v = NULL;
    ttdi_verdict_in in = {NULL, 0, NULL, NULL};

    assert_int_equal(ttdi_verdict(&a, &h->r, &in, &v), 0);
    assert_non_null(v->cause);
    static char name[64];
    snprintf(name, sizeof name, "%s", v->cause->function);
    *cause = name;
    int conf = v->confidence;
    assert_int_equal(v->cause->kind, TTD_COF_CODE);
    ttfi_arena_free(&a);
    return conf;
}

static void test_code_likely(void **state)
{
    static const char *const two[] = {"parse", "helper"};
    static const char *const one[] = {"helper"};
    const char *f;
    hand h;
    (void)state;

    /* the diverging frame's own source changed: its code and its place */
    memset(&h, 0, sizeof h);
    suspect(&h, 0, "parse", TTD_SUSPECT_FRAME, TTDI_W_CODE + TTDI_W_SOURCE, SRC_CHANGED);
    setup(&h, 1, two, 2);
    assert_int_equal(verdict_of(&h, &f), TTD_CONF_LIKELY);
    assert_string_equal(f, "parse");
    /* must not: its machine code only carries a change made elsewhere */
    memset(&h, 0, sizeof h);
    suspect(&h, 0, "parse", TTD_SUSPECT_FRAME, TTDI_W_CODE_CARRIED,
            "its machine code differs between the two builds, its source does not");
    setup(&h, 1, two, 2);
    assert_int_equal(verdict_of(&h, &f), TTD_CONF_POSSIBLE);
    /* must not: the changed suspect only returned before the split; the
     * frame's place is the frame's, not its; but the only function of the
     * program whose code changed is likely */
    for (int only = 0; only < 2; only++) {
        memset(&h, 0, sizeof h);
        suspect(&h, 0, "main", TTD_SUSPECT_FRAME, 0, NULL);
        suspect(&h, 1, "helper", TTD_SUSPECT_RETURNED, TTDI_W_CODE, "its machine code "
                "differs between the two builds");
        setup(&h, 2, only ? one : two, only ? 1 : 2);
        assert_int_equal(verdict_of(&h, &f), only ? TTD_CONF_LIKELY : TTD_CONF_POSSIBLE);
        assert_string_equal(f, "helper");
    }
    /* the same when that only changed function is the first suspect (no
     * spurious suspect above it: libzstd-joinearly, once a pool's swapped
     * job arguments no longer made one); must not: one of two changed */
    for (int only = 0; only < 2; only++) {
        memset(&h, 0, sizeof h);
        suspect(&h, 0, "helper", TTD_SUSPECT_RETURNED, TTDI_W_CODE + TTDI_W_SOURCE,
                SRC_CHANGED);
        suspect(&h, 1, "main", TTD_SUSPECT_FRAME, 0, NULL);
        setup(&h, 2, only ? one : two, only ? 1 : 2);
        assert_int_equal(verdict_of(&h, &f), only ? TTD_CONF_LIKELY : TTD_CONF_POSSIBLE);
        assert_string_equal(f, "helper");
    }
}

/* No source read (neither build's source found): a caller on the way
 * whose machine code changed is "possible" when other functions changed
 * too (rapidjson-rawnumber values: the fix's RawNumber inlined into
 * ParseNumber, ParseObject and the caller pretty_copy alike; the code of
 * each changed, one source did), "likely" when it is the program's only
 * changed function, its clones and cold part counted with it. With the
 * source read, its own source changed: likely among others (above). */
static void test_code_likely_no_source(void **state)
{
    static const char *const many[] = {"copy.constprop.0", "ParseNumber", "ParseObject"};
    static const char *const clones[] = {"copy.constprop.0", "copy.constprop.0.cold", "copy"};
    static const char *const cxx[] = {"copy(int) [clone .constprop.0]",
                                      "copy(int) [clone .constprop.0] [clone .cold]"};
    static const char *const near[] = {"copy.constprop.0", "copyright"};
    const char *f;
    hand h;
    (void)state;

    /* must not: one of three changed, no source read */
    memset(&h, 0, sizeof h);
    suspect(&h, 0, "Parse", TTD_SUSPECT_FRAME, 0, NULL);
    suspect(&h, 1, "copy.constprop.0", TTD_SUSPECT_CALLER, TTDI_W_CODE,
            "its machine code differs between the two builds");
    setup(&h, 2, many, 3);
    assert_int_equal(verdict_of(&h, &f), TTD_CONF_POSSIBLE);
    assert_string_equal(f, "copy.constprop.0");
    /* the same with its own source changed: likely (its code and place) */
    h.ev[1][0].weight = TTDI_W_CODE + TTDI_W_SOURCE;
    h.ev[1][0].text = SRC_CHANGED;
    assert_int_equal(verdict_of(&h, &f), TTD_CONF_LIKELY);
    /* the only changed function, with its clones and cold part: likely */
    memset(&h, 0, sizeof h);
    suspect(&h, 0, "Parse", TTD_SUSPECT_FRAME, 0, NULL);
    suspect(&h, 1, "copy.constprop.0", TTD_SUSPECT_CALLER, TTDI_W_CODE,
            "its machine code differs between the two builds");
    setup(&h, 2, clones, 3);
    assert_int_equal(verdict_of(&h, &f), TTD_CONF_LIKELY);
    /* C++'s demangled clone names the same */
    memset(&h, 0, sizeof h);
    suspect(&h, 0, "Parse", TTD_SUSPECT_FRAME, 0, NULL);
    suspect(&h, 1, cxx[0], TTD_SUSPECT_CALLER, TTDI_W_CODE,
            "its machine code differs between the two builds");
    setup(&h, 2, cxx, 2);
    assert_int_equal(verdict_of(&h, &f), TTD_CONF_LIKELY);
    /* must not: a name it starts, not a clone of it */
    memset(&h, 0, sizeof h);
    suspect(&h, 0, "Parse", TTD_SUSPECT_FRAME, 0, NULL);
    suspect(&h, 1, "copy.constprop.0", TTD_SUSPECT_CALLER, TTDI_W_CODE,
            "its machine code differs between the two builds");
    setup(&h, 2, near, 2);
    assert_int_equal(verdict_of(&h, &f), TTD_CONF_POSSIBLE);
}

/* The verdict of h (no code compared) with counts k[0..nk): its cause's
 * kind and function, its confidence in *conf. */
static int cause_kind(hand *h, const ttd_count *k, size_t nk, const char **fn, int *conf)
{
    struct ttfi_arena a = {0};
    const ttd_verdict *v = NULL;
    ttdi_verdict_in in = {k, nk, NULL, NULL};
    static char name[64];

    h->r.code_compared = 0;
    assert_int_equal(ttdi_verdict(&a, &h->r, &in, &v), 0);
    assert_non_null(v->cause);
    snprintf(name, sizeof name, "%s", v->cause->function);
    *fn = name;
    *conf = v->confidence;
    int kind = v->cause->kind;
    ttfi_arena_free(&a);
    return kind;
}

static void test_answer_yields(void **state)
{
    static const char *const ANSWER_TEXT = "its answer (_Bool) went up through `token`, each "
        "returning right after it, to `parse`, whose calls part next: the branch most likely "
        "used it (values not recorded)";
    const char *f;
    int conf;
    hand h;
    (void)state;

    memset(&h, 0, sizeof h);
    h.s[0].name = "match";
    h.s[0].role = TTD_SUSPECT_RETURNED;
    h.ev[0][0] = (ttd_evidence){TTD_EV_ANSWER, TTDI_W_ANSWER, ANSWER_TEXT};
    h.s[0].evidence = h.ev[0];
    h.s[0].nevidence = 1;
    h.s[0].score = TTDI_W_ANSWER;
    suspect(&h, 1, "parse", TTD_SUSPECT_FRAME, 0, NULL);
    setup(&h, 2, NULL, 0);
    h.frame.name = "parse";
    assert_int_equal(cause_kind(&h, NULL, 0, &f, &conf), TTD_COF_ANSWER);
    assert_string_equal(f, "match");
    assert_int_equal(conf, TTD_CONF_POSSIBLE);

    /* must not: a race only in the bad run that reaches the symptom */
    ttd_race x;
    memset(&x, 0, sizeof x);
    x.kind = TTD_RACE_CHECK_ACT;
    x.run = TTD_BAD;
    x.check = "reserve";
    x.thread_name[0] = x.thread_name[1] = "main";
    x.good_compared = x.overlapped = x.reaches_symptom = 1;
    h.r.races = &x;
    h.r.nraces = 1;
    assert_int_equal(cause_kind(&h, NULL, 0, &f, &conf), TTD_COF_RACE);
    assert_string_equal(f, "reserve");
    h.r.nraces = 0;

    /* must not: a count every passing run agrees on */
    ttd_count k = {"retry", 3, 2, 2, 2};
    assert_int_equal(cause_kind(&h, &k, 1, &f, &conf), TTD_COF_COUNT);
    assert_string_equal(f, "retry");
}

/* A race on the path heads the verdict when the first suspect is the
 * answer its own check returned (an error origin: ttdiff_checkact's
 * tickets_left returned -1, oversold, once a pool's items are matched by
 * their values); must not: an error origin in a function outside the
 * race's window stays the cause. */
static void test_race_explains_origin(void **state)
{
    const char *f;
    int conf;
    hand h;
    ttd_race x;
    (void)state;

    for (int other = 0; other < 2; other++) {
        memset(&h, 0, sizeof h);
        h.s[0].name = "tickets_left";
        h.s[0].role = TTD_SUSPECT_RETURNED;
        h.ev[0][0] = (ttd_evidence){TTD_EV_ERROR, 4.0, "its answer flipped here (an error in "
                                                       "the bad run), its inputs did not"};
        h.s[0].evidence = h.ev[0];
        h.s[0].nevidence = 1;
        h.s[0].score = 4.0;
        suspect(&h, 1, "main", TTD_SUSPECT_FRAME, 0, NULL);
        setup(&h, 2, NULL, 0);
        h.frame.name = "main";
        memset(&x, 0, sizeof x);
        x.kind = TTD_RACE_CHECK_ACT;
        x.run = TTD_BAD;
        x.check = other ? "reserve" : "tickets_left";
        x.thread_name[0] = x.thread_name[1] = "seller";
        x.good_compared = x.overlapped = x.reaches_symptom = 1;
        h.r.races = &x;
        h.r.nraces = 1;
        assert_int_equal(cause_kind(&h, NULL, 0, &f, &conf),
                         other ? TTD_COF_ERROR_ORIGIN : TTD_COF_RACE);
        assert_string_equal(f, "tickets_left");
    }
}

/* The symptom's and cause's label (ttd_place.label, what the renderers
 * print): "#3 app" when another pair's thread has the name, "app" when
 * no other pair's has. */
static void test_place_label(void **state)
{
    const char *names[][2] = {{"app", "app"}, {"app", "worker"}};
    const char *want[] = {"#3 app", "worker"};
    (void)state;

    for (int k = 0; k < 2; k++) {
        hand h;
        ttd_pair two[2];
        struct ttfi_arena a = {0};
        const ttd_verdict *v = NULL;
        ttdi_verdict_in in = {NULL, 0, NULL, NULL};

        memset(&h, 0, sizeof h);
        memset(two, 0, sizeof two);
        suspect(&h, 0, "parse", TTD_SUSPECT_FRAME, 0, NULL);
        setup(&h, 1, NULL, 0);
        for (int i = 0; i < 2; i++) {
            two[i].good.name = two[i].bad.name = names[k][i];
            two[i].bad.index = two[i].good.index = (uint32_t)(2 + i);
        }
        h.r.pairs = two;
        h.r.npairs = 2;
        h.d.pair = h.s[0].pair = 1;   /* the suspect ran in the split's thread */
        assert_int_equal(ttdi_verdict(&a, &h.r, &in, &v), 0);
        assert_non_null(v->symptom);
        assert_string_equal(v->symptom->thread, names[k][1]);
        assert_string_equal(v->symptom->label, want[k]);
        assert_non_null(v->cause);
        assert_string_equal(v->cause->label, want[k]);
        ttfi_arena_free(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_code_likely),
        cmocka_unit_test(test_code_likely_no_source),
        cmocka_unit_test(test_race_explains_origin),
        cmocka_unit_test(test_answer_yields),
        cmocka_unit_test(test_place_label),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
