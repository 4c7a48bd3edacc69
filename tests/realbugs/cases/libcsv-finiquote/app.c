/* libcsv-finiquote's application: a file server's access list. acl.csv
 * (quoted "user","mode" pairs, as an editor saved it: no newline after the
 * last line; the application writes it first, as an earlier step would) is
 * loaded at start with libcsv into a table; then a day's 400 requests are
 * authorised against it: mode "rw" allows reads and writes, "ro" reads
 * only; any other mode is a corrupt entry, reported, and the server stops
 * (exit 1). Exit 0 when every request was decided. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "csv.h"

#define NUSER 30
#define NREQ 400

struct acl_entry {
    char *user;
    char *mode;
};

struct acl {
    struct acl_entry e[NUSER + 1];
    int n;       /* complete entries */
    int col;     /* column of the next field */
};

static const char *names[NUSER] = {
    "ada", "ben", "cai", "dan", "eva", "fay", "gus", "hal", "ivy", "jon",
    "kim", "lea", "max", "ned", "ora", "pam", "quin", "rob", "sam", "tia",
    "uma", "vic", "wes", "xia", "yan", "zac", "abe", "bea", "cy", "zoe"};

static void write_acl(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        exit(2);
    for (int i = 0; i < NUSER; i++)
        fprintf(f, "\"%s\",\"%s\"%s", names[i], i % 4 == 1 ? "rw" : "ro",
                i < NUSER - 1 ? "\n" : "");   /* no newline at the end */
    fclose(f);
}

static void on_field(void *s, size_t len, void *data)
{
    struct acl *a = data;
    char *v = malloc(len + 1);
    if (!v)
        exit(2);
    memcpy(v, s, len);
    v[len] = '\0';
    if (a->n < NUSER && a->col == 0)
        a->e[a->n].user = v;
    else if (a->n < NUSER && a->col == 1)
        a->e[a->n].mode = v;
    else
        free(v);
    a->col++;
}

static void on_row(int c, void *data)
{
    struct acl *a = data;
    (void)c;
    if (a->col == 2 && a->n < NUSER)
        a->n++;
    a->col = 0;
}

static int load_acl(struct acl *a, const char *path)
{
    struct csv_parser p;
    char buf[256];
    size_t n;
    FILE *f = fopen(path, "r");
    if (!f || csv_init(&p, 0) != 0)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (csv_parse(&p, buf, n, on_field, on_row, a) != n)
            return -1;
    csv_fini(&p, on_field, on_row, a);   /* the last line has no newline */
    csv_free(&p);
    fclose(f);
    return a->n;
}

static struct acl_entry *find_user(struct acl *a, const char *user)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->e[i].user, user) == 0)
            return &a->e[i];
    return NULL;
}

/* 1 allowed, 0 refused, -1 the mode is not one the server knows */
static int mode_allows(const char *mode, int write)
{
    if (strcmp(mode, "rw") == 0)
        return 1;
    if (strcmp(mode, "ro") == 0)
        return !write;
    return -1;
}

static long served, refused;

static void grant(struct acl_entry *e, int write)
{
    served += write ? 2 : 1;
    (void)e;
}

static void refuse(struct acl_entry *e, int write)
{
    refused++;
    (void)e; (void)write;
}

static void report_corrupt(struct acl_entry *e)
{
    fprintf(stderr, "acl.csv: user %s has an unknown mode '%s'\n", e->user, e->mode);
}

static int authorize(struct acl *a, const char *user, int write)
{
    struct acl_entry *e = find_user(a, user);
    if (!e) {
        refused++;
        return 0;
    }
    int r = mode_allows(e->mode, write);
    if (r < 0) {
        report_corrupt(e);
        return -1;
    }
    if (r)
        grant(e, write);
    else
        refuse(e, write);
    return r;
}

int main(void)
{
    static struct acl a;
    write_acl("acl.csv");
    if (load_acl(&a, "acl.csv") != NUSER) {
        fprintf(stderr, "acl.csv: %d entries\n", a.n);
        return 2;
    }
    /* the day's requests: the other users first, zoe (the last line)
       only from request 350 on */
    for (int i = 0; i < NREQ; i++) {
        const char *user = i < 350 ? names[i % (NUSER - 1)] : names[NUSER - 1];
        int write = (i % 3) == 2;
        if (authorize(&a, user, write) < 0)
            return 1;
    }
    printf("%d requests: %ld served units, %ld refused\n", NREQ, served, refused);
    return 0;
}
