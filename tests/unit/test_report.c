/*
 * test_report.c - the ttdiff renderers: JSON string escaping (quotes,
 * control bytes, HTML-special characters, invalid UTF-8), a whole JSON
 * report checked by a small strict JSON parser, and the text report's
 * colour switch and printable output for hostile strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "ttreport.h"
#include "ttr_int.h"

#include "tmpdir.h"

/* ---- a strict JSON checker (RFC 8259 grammar, UTF-8 output only) ------- */

typedef struct jp {
    const char *s;          /* next byte */
    int depth;              /* nesting */
} jp;

static int j_value(jp *p);

static void j_ws(jp *p)
{
    while (*p->s == ' ' || *p->s == '\n' || *p->s == '\t' || *p->s == '\r')
        p->s++;
}

static int j_string(jp *p)
{
    if (*p->s++ != '"')
        return -1;
    for (;;) {
        unsigned char c = (unsigned char)*p->s++;
        if (c == '"')
            return 0;
        if (c < 0x20 || c == 0x7F)
            return -1; /* raw control byte (0x7F is legal JSON, but we escape it) */
        if (c != '\\')
            continue;
        c = (unsigned char)*p->s++;
        if (c == 'u') {
            for (int i = 0; i < 4; i++)
                if (!strchr("0123456789abcdefABCDEF", *p->s++) || !p->s[-1])
                    return -1;
        } else if (!strchr("\"\\/bfnrt", c) || !c) {
            return -1;
        }
    }
}

static int j_number(jp *p)
{
    const char *start = p->s, *digits;
    if (*p->s == '-')
        p->s++;
    digits = p->s;
    while (*p->s >= '0' && *p->s <= '9')
        p->s++;
    if (p->s == digits)
        return -1;
    if (*p->s == '.') {             /* a fraction needs a digit after the dot */
        const char *f = ++p->s;
        while (*p->s >= '0' && *p->s <= '9')
            p->s++;
        if (p->s == f)
            return -1;
    }
    return p->s > start ? 0 : -1;
}

static int j_items(jp *p, char close, int keyed)
{
    j_ws(p);
    if (*p->s == close) {
        p->s++;
        return 0;
    }
    for (;;) {
        j_ws(p);
        if (keyed) {
            if (j_string(p) < 0)
                return -1;
            j_ws(p);
            if (*p->s++ != ':')
                return -1;
        }
        if (j_value(p) < 0)
            return -1;
        j_ws(p);
        char c = *p->s++;
        if (c == close)
            return 0;
        if (c != ',')
            return -1;
    }
}

static int j_value(jp *p)
{
    j_ws(p);
    if (++p->depth > 64)
        return -1;
    int rc;
    if (*p->s == '{' || *p->s == '[') {
        char open = *p->s++;
        rc = j_items(p, open == '{' ? '}' : ']', open == '{');
    } else if (*p->s == '"') {
        rc = j_string(p);
    } else if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "null", 4)) {
        p->s += 4;
        rc = 0;
    } else if (!strncmp(p->s, "false", 5)) {
        p->s += 5;
        rc = 0;
    } else {
        rc = j_number(p);
    }
    p->depth--;
    return rc;
}

static int json_ok(const char *s)
{
    jp p = {s, 0};
    if (j_value(&p) < 0)
        return 0;
    j_ws(&p);
    return *p.s == '\0';
}

/* ---- helpers ---------------------------------------------------------- */

static char *render_string(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(ttr_json_string(f, s), 0);
    fclose(f);
    return buf;
}

static void escapes_to(const char *in, const char *want)
{
    char *got = render_string(in);
    assert_string_equal(got, want);
    assert_true(json_ok(got));
    free(got);
}

static const char HOSTILE[] = "say \"hi\" \\ \x01\t<script>&\xff\xc3(%d)";

/* A diff whose bad run logs HOSTILE where the good run enters dt_check. */
static ttd_diff *hostile_diff(void)
{
    static int n;
    static const char *const names[] = {"main\x02<b>"};
    char pg[256], pb[256];
    dt t;
    ttd_diff *d = NULL;
    ttf_error err;

    snprintf(pg, sizeof pg, "%s/g%d.trc", tu_tmpdir, n);
    snprintf(pb, sizeof pb, "%s/b%d.trc", tu_tmpdir, n++);
    assert_int_equal(dt_open(&t, pg, 0, names, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} check{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(dt_open(&t, pb, 0, names, 1), 0);
    assert_int_equal(dt_site(&t, 0, 1, HOSTILE, "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} #1:7 *11"), 0);
    assert_int_equal(dt_close(&t, 1), 0);
    assert_int_equal(ttd_diff_files(pg, pb, NULL, &d, &err), 0);
    return d;
}

/* ---- tests -------------------------------------------------------------- */

static void test_escape(void **state)
{
    (void)state;
    escapes_to("plain", "\"plain\"");
    escapes_to("", "\"\"");
    escapes_to("q\"b\\s/", "\"q\\\"b\\\\s/\"");
    escapes_to("\n\r\t\x01\x1f\x7f", "\"\\n\\r\\t\\u0001\\u001f\\u007f\"");
    escapes_to("</script>&", "\"\\u003c/script\\u003e\\u0026\"");
    escapes_to("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    escapes_to("a\xffz", "\"a\\ufffdz\"");
    escapes_to("\xc3", "\"\\ufffd\"");               /* cut sequence */
    escapes_to("\xc0\xaf", "\"\\ufffd\\ufffd\"");     /* overlong '/' */
    escapes_to("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate */
    escapes_to("\xe2\x80\xa8", "\"\\u2028\"");
    escapes_to("\xc2\x9b" "2J\xc2\x85\xc2\xa0", "\"\\u009b2J\\u0085\xc2\xa0\"");  /* C1 */
    /* longer than ttr_json_string's buffer: every escape whole across flushes */
    char in[303], want[1100];
    size_t n = 0;
    want[n++] = '"';
    for (int i = 0; i < 299; i++) {
        in[i] = i % 2 ? '<' : 'a';
        n += (size_t)snprintf(want + n, sizeof want - n, "%s", i % 2 ? "\\u003c" : "a");
    }
    memcpy(in + 299, "\xe2\x80\xa9", 3);
    snprintf(want + n, sizeof want - n, "\\u2029\"");
    in[302] = 0;
    escapes_to(in, want);
    char *null = render_string(NULL);
    assert_string_equal(null, "null");
    free(null);
}

/* ttf_put_text: what a terminal gets from a trace string. */
static void term_to(const char *in, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(ttf_put_text(f, in), 0);
    fclose(f);
    assert_string_equal(buf, want);
    free(buf);
}

static void test_terminal_text(void **state)
{
    (void)state;
    term_to("plain <b> \"q\" caf\xc3\xa9 \xe2\x82\xac", "plain <b> \"q\" caf\xc3\xa9 \xe2\x82\xac");
    term_to("a\nb\tc\r\x7f", "a\\nb\\tc\\x0d\\x7f");
    term_to("\x1b]0;t\x07\x1b[2J", "\\x1b]0;t\\x07\\x1b[2J");
    term_to("\x9b" "31m", "\\x9b31m");                    /* 8-bit CSI */
    term_to("\xc2\x9b" "31m \xc2\x85", "\\xc2\\x9b31m \\xc2\\x85"); /* C1 as UTF-8 */
    term_to("\xc2\xa0\xff\xc3(", "\xc2\xa0\\xff\\xc3(");    /* NBSP kept */
    term_to("\xed\xa0\x80", "\\xed\\xa0\\x80");           /* surrogate */
    term_to(NULL, "");
}

static void test_checker_rejects(void **state)
{
    (void)state;
    /* the checker itself must be able to fail */
    assert_true(json_ok("{\"a\": [1, -2, true, null, \"x\\u0041\"]}"));
    assert_false(json_ok("{\"a\": [1, 2,]}"));
    assert_false(json_ok("{\"a\" 1}"));
    assert_false(json_ok("\"raw\x01\""));
    assert_false(json_ok("\"bad \\q\""));
    assert_false(json_ok("{} x"));
    assert_true(json_ok("[1.500, -0.250]"));
    assert_false(json_ok("[1.]"));
}

static void test_json_report(void **state)
{
    (void)state;
    ttd_diff *d = hostile_diff();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_int_equal(ttr_json(f, d, NULL), 0);
    fclose(f);
    assert_true(json_ok(buf));
    assert_non_null(strstr(buf, "\"schema_version\": 2"));
    assert_non_null(strstr(buf, "\"stack\": [\"dt_main\"]"));
    assert_non_null(strstr(buf, "\"function\": \"dt_check\""));
    assert_non_null(strstr(buf, "say \\\"hi\\\" \\\\ \\u0001\\t\\u003cscript\\u003e\\u0026\\ufffd\\ufffd(7)"));
    assert_non_null(strstr(buf, "\"name\": \"main\\u0002\\u003cb\\u003e\""));
    assert_non_null(strstr(buf, "\"kind\": \"crash\""));
    assert_non_null(strstr(buf, "\"signal\": 11"));
    assert_null(strstr(buf, "<script>"));
    free(buf);
    ttd_free(d);
}

static void test_text_report(void **state)
{
    (void)state;
    ttd_diff *d = hostile_diff();
    ttr_options o;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    ttr_options_init(&o);
    assert_int_equal(ttr_text(f, d, &o), 0);
    fclose(f);
    assert_null(strchr(buf, '\033'));
    assert_null(strchr(buf, '\x01'));
    assert_non_null(strstr(buf, "first divergence: thread main\\x02<b>"));
    assert_non_null(strstr(buf, "  -        3    dt_check();"));
    assert_non_null(strstr(buf, "log dt_log: say \"hi\" \\ \\x01\\t<script>&"));
    assert_non_null(strstr(buf, "the bad run died here: crash SIGSEGV"));
    free(buf);

    o.color = 1;
    f = open_memstream(&buf, &len);
    assert_int_equal(ttr_text(f, d, &o), 0);
    fclose(f);
    assert_non_null(strstr(buf, "\033[31m  -"));
    assert_non_null(strstr(buf, "\033[32m  +"));
    free(buf);
    ttd_free(d);
}

static void test_no_divergence(void **state)
{
    (void)state;
    static const char *const names[] = {"main"};
    char p[256], *buf = NULL;
    size_t len = 0;
    dt t;
    ttd_diff *d;
    ttf_error err;

    snprintf(p, sizeof p, "%s/same.trc", tu_tmpdir);
    assert_int_equal(dt_open(&t, p, 0, names, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(ttd_diff_files(p, p, NULL, &d, &err), 0);
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(ttr_json(f, d, NULL), 0);
    fclose(f);
    assert_true(json_ok(buf));
    assert_non_null(strstr(buf, "\"first_divergence\": null"));
    assert_non_null(strstr(buf, "\"diverged\": false"));
    free(buf);
    f = open_memstream(&buf, &len);
    assert_int_equal(ttr_text(f, d, NULL), 0);
    fclose(f);
    assert_non_null(strstr(buf, "no divergence in 1 thread pair"));
    free(buf);
    ttd_free(d);
}

/* The report model (model.c): each sentence built once, both formats'
 * words in it, and a plain string of it for JSON (a verdict's headline). */
static void test_model(void **state)
{
    (void)state;
    ttd_diff *d = hostile_diff();
    ttri_model m;
    int text = 0, html = 0;

    assert_int_equal(ttri_model_init(&m, ttd_get_result(d)), 0);
    assert_non_null(m.split);
    assert_non_null(m.bad_end);
    assert_null(m.program);     /* one program */
    assert_null(m.races);
    assert_string_equal(ttri_model_plain(&m, m.split),
                        "first divergence: thread main\x02<b> (good #0, bad #0), good event 3, "
                        "bad event 3, at 0.000 ms in the bad run");
    assert_non_null(strstr(ttri_model_plain(&m, m.bad_end),
                           "the bad run died here: crash SIGSEGV"));
    for (const ttri_span *p = m.bad_end->first; p; p = p->next) {
        text += p->only != TTRI_HTML;
        html += p->only != TTRI_TEXT;
        assert_true(p->kind != TTRI_SP_LIT || p->s);
    }
    assert_true(text > 0 && html > 0);  /* both formats say it */
    const ttri_sent *c = ttri_m_crash_here(&m, ttd_get_result(d)->first->crash);
    assert_string_equal(ttri_model_plain(&m, c), "");  /* the HTML report's own */
    assert_int_equal(m.failed, 0);
    ttri_model_free(&m);
    ttd_free(d);
}

/* C++ names shortened for text and HTML (names.c). */
/* A damaged trace's depths (any int): levels stay within the cap, so
 * the renderers' differences of two levels cannot overflow (UBSan). */
static void test_level_cap(void **state)
{
    ttd_event lo = {0}, hi = {0};
    (void)state;
    lo.kind = TTF_EV_EXIT;
    lo.depth = INT32_MIN + 2;
    hi.kind = TTF_EV_ENTER;
    hi.depth = INT32_MAX;
    assert_int_equal(ttri_level(&lo), -TTRI_LEVEL_CAP - 1);
    assert_int_equal(ttri_level(&hi), TTRI_LEVEL_CAP);
    assert_true(ttri_level(&hi) - ttri_level(&lo) > 0);
    lo.depth = 3;
    assert_int_equal(ttri_level(&lo), 2);
    assert_int_equal(ttri_min_level(&hi, 1, 7), 7);
}

static void test_short_names(void **state)
{
    static const char *const cases[][2] = {
        {"show(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, Kind)",
         "show(std::string, Kind)"},
        {"std::vector<Token, std::allocator<Token> >::push_back(Token const&)",
         "std::vector<Token>::push_back(Token const&)"},
        {"std::map<int, std::__cxx11::basic_string<char, std::char_traits<char>, "
         "std::allocator<char> >, std::less<int>, std::allocator<std::pair<int const, "
         "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > > >::find(int const&)",
         "std::map<int, std::string>::find(int const&)"},
        {"A<B<C<D<int> > > >::f()", "A<B<C<...> > >::f()"},
        {"operator<<(std::basic_ostream<char, std::char_traits<char> >&, Point const&)",
         "operator<<(std::ostream&, Point const&)"},
        {"bool operator< <Key>(Key const&, Key const&)", "bool operator< <Key>(Key const&, Key const&)"},
        {"std::unique_ptr<Node, std::default_delete<Node> >::reset(Node*)",
         "std::unique_ptr<Node>::reset(Node*)"},
        {"std::function<void (int, char)>::operator()(int, char) const",
         "std::function<void (int, char)>::operator()(int, char) const"},
        {"parse_number", "parse_number"},
        {"broken<int, (", "broken<int, ("},
        {"f(a<b)", "f(a<b)"},
    };
    char buf[TTRI_NAME_MAX], tiny[24];
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_string_equal(ttri_short_name(cases[i][0], buf, sizeof buf), cases[i][1]);
    assert_string_equal(ttri_short_quoted("the calls part in `std::vector<Token, std::allocator<Token> >::at(unsigned long)`: i < n", buf, sizeof buf),
                        "the calls part in `std::vector<Token>::at(unsigned long)`: i < n");
    assert_string_equal(ttri_short_quoted("for (i = 0; i < n; i++) x<y>(z);", buf, sizeof buf),
                        "for (i = 0; i < n; i++) x<y>(z);");
    const char *t = ttri_short_name(cases[1][0], tiny, sizeof tiny);
    assert_true(strlen(t) < sizeof tiny);
    assert_non_null(strstr(t, "..."));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_terminal_text),
        cmocka_unit_test(test_checker_rejects),
        cmocka_unit_test(test_json_report),
        cmocka_unit_test(test_text_report),
        cmocka_unit_test(test_no_divergence),
        cmocka_unit_test(test_short_names),
        cmocka_unit_test(test_level_cap),
        cmocka_unit_test(test_model),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
