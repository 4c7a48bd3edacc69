/*
 * ptable.c - the process table of a recorded tree (DIR/processes.ttp,
 * FORMAT.md section 11): the rows every process of the tree appended, read
 * into one entry per process image with its parent found.
 *
 * Design. The writers append whole rows with single O_APPEND writes, so
 * the file is a plain sequence of rows, each with a magic, a length and a
 * checksum. A row cut by the end of the file (a full disk, a copy cut in
 * transfer) is dropped and counted; a bad row anywhere else means the file
 * is not what its writers wrote, and the table is refused (TT_ECORRUPT,
 * naming the offset): a tree compared on a guessed table would mislead.
 * Parents: a fork child and an exec'd image name their parent row (pid,
 * start); a process that began with an exec names the process that
 * started it, unless that pid's own previous image ended by exec (a shell
 * passes its children its own name): then it is that image's exec. A row
 * whose parent is not in the table hangs under the row of its parent pid
 * that started last before it, or is a root.
 *
 * Revisions add fields at the end of a row's payload and new kinds of
 * row, so this reader skips bytes after the fields it knows and rows of
 * kinds it does not know (revision 1 readers did the same). Revision 2:
 * environments (ENV rows, each distinct environment once, named by a hash
 * that START rows carry) and REAP rows, a parent's record of a child
 * killed by a signal that wrote no END (SIGKILL): it goes to the last
 * image of that pid started before it, if that image has no END.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ttf_int.h"
#include "ttf_wire.h"

/* One environment of ENV rows: its variables as they arrive. */
struct env {
    uint64_t hash;
    char **vars;                /* total slots, NULL until its row came */
    size_t total, have;
};

struct ttf_ptable {
    ttf_proc *p;
    uint64_t *env_of;           /* per row, the hash its START names */
    size_t n, cap;
    struct env *envs;
    size_t nenvs, capenvs;
    size_t dropped;
    char *buf;                  /* the file; strings point into copies */
};

/* A bounded reader of one row's payload. */
struct rd {
    const uint8_t *p, *end;
    int bad;
};

static uint64_t rd_uvar(struct rd *r)
{
    uint64_t v = 0;
    for (int sh = 0; sh < 64; sh += 7) {
        if (r->p >= r->end) {
            r->bad = 1;
            return 0;
        }
        uint8_t b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            return v;
    }
    r->bad = 1;
    return 0;
}

static int64_t rd_svar(struct rd *r)
{
    uint64_t z = rd_uvar(r);
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

/* A string of the row, copied NUL-terminated (NULL on failure). */
static char *rd_str(struct rd *r)
{
    uint64_t n = rd_uvar(r);
    if (r->bad || n > (uint64_t)(r->end - r->p)) {
        r->bad = 1;
        return NULL;
    }
    char *s = malloc(n + 1);
    if (!s) {
        r->bad = 1;
        return NULL;
    }
    memcpy(s, r->p, n);
    s[n] = 0;
    r->p += n;
    return s;
}

static ttf_proc *push(ttf_ptable *t)
{
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        ttf_proc *np = realloc(t->p, nc * sizeof *np);
        if (np)
            t->p = np;
        uint64_t *ne = np ? realloc(t->env_of, nc * sizeof *ne) : NULL;
        if (!ne)
            return NULL;
        t->env_of = ne;
        t->cap = nc;
    }
    t->env_of[t->n] = 0;
    ttf_proc *p = &t->p[t->n++];
    memset(p, 0, sizeof *p);
    p->parent = -1;
    return p;
}

static int64_t find(const ttf_ptable *t, uint64_t pid, uint64_t ns)
{
    for (size_t i = t->n; i-- > 0;)
        if (t->p[i].pid == pid && t->p[i].start_ns == ns)
            return (int64_t)i;
    return -1;
}

/* The row of pid that started last, not after ns (excluding self). */
static int64_t latest(const ttf_ptable *t, uint64_t pid, uint64_t ns, size_t self)
{
    int64_t best = -1;
    for (size_t i = 0; i < t->n; i++)
        if (i != self && t->p[i].pid == pid && t->p[i].start_ns <= ns &&
            (best < 0 || t->p[i].start_ns >= t->p[best].start_ns))
            best = (int64_t)i;
    return best;
}

static int read_start(ttf_ptable *t, struct rd *r)
{
    ttf_proc *p = push(t);
    if (!p)
        return TT_ENOMEM;
    p->pid = (uint32_t)rd_uvar(r);
    p->ppid = (uint32_t)rd_uvar(r);
    p->start_ns = rd_uvar(r);
    p->parent_pid = (uint32_t)rd_uvar(r);
    p->parent_start_ns = rd_uvar(r);
    p->how = (int)rd_uvar(r);
    p->traced = rd_uvar(r) != 0;
    p->exe = rd_str(r);
    p->build_id = rd_str(r);
    p->cwd = rd_str(r);
    p->trace = rd_str(r);
    uint64_t argc = rd_uvar(r);
    if (r->bad || argc > (uint64_t)(r->end - r->p))
        return TT_ECORRUPT;
    char **argv = calloc(argc + 1, sizeof *argv);
    if (!argv)
        return TT_ENOMEM;
    p->argv = (const char *const *)argv;
    p->argc = (size_t)argc;
    for (uint64_t i = 0; i < argc && !r->bad; i++)
        argv[i] = rd_str(r);
    if (!r->bad && r->p < r->end)   /* revision 2 */
        t->env_of[t->n - 1] = rd_uvar(r);
    if (!r->bad && r->p < r->end)
        p->fork_nth = (uint32_t)rd_uvar(r);
    return r->bad ? TT_ECORRUPT : 0;
}

static int read_end(ttf_ptable *t, struct rd *r)
{
    uint64_t pid = rd_uvar(r), ns = rd_uvar(r), end = rd_uvar(r), how = rd_uvar(r);
    int64_t status = rd_svar(r);
    uint64_t sig = rd_uvar(r);
    if (r->bad)
        return TT_ECORRUPT;
    int64_t i = find(t, pid, ns);
    if (i < 0)
        return 0;               /* its START was lost (a full disk): nothing to add */
    ttf_proc *p = &t->p[i];
    p->end_ns = end;
    p->ended = (int)how;        /* the last END wins: a failed exec goes on */
    p->status = (int)status;
    p->signal = (int)sig;
    return 0;
}

/* A REAP row: the last image of pid started before it, if it has no END,
 * ended by the signal. */
static int read_reap(ttf_ptable *t, struct rd *r)
{
    uint64_t pid = rd_uvar(r), end = rd_uvar(r), sig = rd_uvar(r);
    if (r->bad)
        return TT_ECORRUPT;
    int64_t i = latest(t, pid, end, SIZE_MAX);
    if (i < 0 || t->p[i].ended)
        return 0;               /* its own END came first, or its START was lost */
    ttf_proc *p = &t->p[i];
    p->end_ns = end;
    p->ended = TTF_PROC_SIGNALED;
    p->signal = (int)sig;
    p->reaped = 1;
    return 0;
}

/* The environment of hash (new when absent), NULL on no memory. */
static struct env *env_get(ttf_ptable *t, uint64_t hash, uint64_t total)
{
    for (size_t i = 0; i < t->nenvs; i++)
        if (t->envs[i].hash == hash)
            return &t->envs[i];
    if (t->nenvs == t->capenvs) {
        size_t nc = t->capenvs ? 2 * t->capenvs : 16;
        struct env *ne = realloc(t->envs, nc * sizeof *ne);
        if (!ne)
            return NULL;
        t->envs = ne;
        t->capenvs = nc;
    }
    struct env *e = &t->envs[t->nenvs];
    e->vars = calloc(total + 1, sizeof *e->vars);
    if (!e->vars)
        return NULL;
    t->nenvs++;
    e->hash = hash;
    e->total = (size_t)total;
    e->have = 0;
    return e;
}

/* An ENV row: variables first..first+n-1 of the environment hash. A
 * duplicate (two writers at once) adds nothing. */
static int read_env(ttf_ptable *t, struct rd *r)
{
    uint64_t hash = rd_uvar(r), total = rd_uvar(r), first = rd_uvar(r), n = rd_uvar(r);
    if (r->bad || total > 65536 || first > total || n > total - first)
        return TT_ECORRUPT;
    struct env *e = env_get(t, hash, total);
    if (!e)
        return TT_ENOMEM;
    if (e->total != total)
        return TT_ECORRUPT;
    for (uint64_t i = 0; i < n; i++) {
        char *v = rd_str(r);
        if (!v)
            return TT_ECORRUPT;
        if (e->vars[first + i]) {
            free(v);
            continue;
        }
        e->vars[first + i] = v;
        e->have++;
    }
    return 0;
}

/* Each row's environment, when all its variables arrived. */
static void link_envs(ttf_ptable *t)
{
    for (size_t i = 0; i < t->n; i++) {
        for (size_t k = 0; t->env_of[i] && k < t->nenvs; k++) {
            const struct env *e = &t->envs[k];
            if (e->hash != t->env_of[i] || e->have != e->total)
                continue;
            t->p[i].env = (const char *const *)e->vars;
            t->p[i].nenv = e->total;
        }
    }
}

/* Find each row's parent (see the top of the file). */
static void link_parents(ttf_ptable *t)
{
    for (size_t i = 0; i < t->n; i++) {
        ttf_proc *p = &t->p[i];
        int64_t prev = latest(t, p->pid, p->start_ns, i);
        if (p->how == TTF_PT_SPAWN && prev >= 0 && t->p[prev].ended == TTF_PT_EXECED)
            p->how = TTF_PT_EXEC;   /* a shell's fork child, then its exec */
        if (p->how == TTF_PT_EXEC && prev >= 0 && t->p[prev].ended == TTF_PT_EXECED) {
            p->parent = prev;
            continue;
        }
        int64_t par = p->how == TTF_PT_ROOT ? -1 : find(t, p->parent_pid, p->parent_start_ns);
        if (par < 0 || par == (int64_t)i)
            par = latest(t, p->how == TTF_PT_ROOT ? p->ppid : p->parent_pid, p->start_ns, i);
        p->parent = par;
    }
    for (size_t i = 0; i < t->n; i++) {     /* no loops: a row older than its parent is a root */
        int64_t par = t->p[i].parent;
        if (par >= 0 && t->p[par].start_ns > t->p[i].start_ns)
            t->p[i].parent = -1;
    }
}

static int parse(ttf_ptable *t, const uint8_t *b, size_t len, const char *path, ttf_error *err)
{
    size_t off = 0;
    while (off < len) {
        if (len - off < TTF_PT_HDR) {
            t->dropped++;           /* cut by the end of the file */
            break;
        }
        uint32_t magic = (uint32_t)ttf_get_le(b + off, 4);
        uint32_t kind = (uint32_t)ttf_get_le(b + off + 4, 2);
        uint32_t n = (uint32_t)ttf_get_le(b + off + 8, 4);
        uint32_t sum = (uint32_t)ttf_get_le(b + off + 12, 4);
        if (magic != TTF_PT_MAGIC || n > TTF_PT_MAX) {
            ttfi_set_err(err, TT_ECORRUPT, off, "%s: offset %zu: %s", path, off,
                         off ? "bad process table row" : "not a process table (bad magic)");
            return TT_ECORRUPT;
        }
        if (n > len - off - TTF_PT_HDR) {
            t->dropped++;
            break;
        }
        const uint8_t *pl = b + off + TTF_PT_HDR;
        if (ttf_fnv1a(pl, n) != sum) {
            ttfi_set_err(err, TT_ECORRUPT, off, "%s: offset %zu: process table row "
                         "fails its checksum", path, off);
            return TT_ECORRUPT;
        }
        struct rd r = {pl, pl + n, 0};
        int rc = kind == TTF_PT_START ? read_start(t, &r) : kind == TTF_PT_END ? read_end(t, &r)
               : kind == TTF_PT_ENV ? read_env(t, &r) : kind == TTF_PT_REAP ? read_reap(t, &r)
               : 0;             /* a kind of a later revision */
        if (rc) {
            ttfi_set_err(err, rc, off, "%s: offset %zu: %s", path, off,
                         rc == TT_ENOMEM ? "out of memory" : "malformed process table row");
            return rc;
        }
        off += TTF_PT_HDR + n;
    }
    if (!t->n) {
        ttfi_set_err(err, TT_ECORRUPT, 0, "%s: no process in the table", path);
        return TT_ECORRUPT;
    }
    link_parents(t);
    link_envs(t);
    return 0;
}

int ttf_ptable_open(const char *dir, ttf_ptable **out, ttf_error *err)
{
    *out = NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, TTF_PT_NAME);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? errno : EINVAL;
        ttfi_set_err(err, TT_EIO, 0, "%s: no process table (%s): not a recorded tree",
                     path, strerror(e));
        if (fd >= 0)
            close(fd);
        return TT_EIO;
    }
    ttf_ptable *t = calloc(1, sizeof *t);
    char *b = NULL;
    size_t got = 0;
    int rc = ttfi_read_all(fd, (size_t)st.st_size, &b, &got);
    rc = rc ? rc : t ? 0 : TT_ENOMEM;
    if (rc)
        ttfi_set_err(err, rc, 0, "%s: cannot read the process table", path);
    else
        rc = parse(t, (const uint8_t *)b, got, path, err);
    free(b);
    if (rc) {
        ttf_ptable_close(t);
        return rc;
    }
    *out = t;
    return 0;
}

size_t ttf_ptable_count(const ttf_ptable *t)
{
    return t ? t->n : 0;
}

size_t ttf_ptable_dropped(const ttf_ptable *t)
{
    return t ? t->dropped : 0;
}

const ttf_proc *ttf_ptable_get(const ttf_ptable *t, size_t i)
{
    return t && i < t->n ? &t->p[i] : NULL;
}

void ttf_ptable_close(ttf_ptable *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        ttf_proc *p = &t->p[i];
        free((void *)(uintptr_t)p->exe);
        free((void *)(uintptr_t)p->build_id);
        free((void *)(uintptr_t)p->cwd);
        free((void *)(uintptr_t)p->trace);
        for (size_t k = 0; p->argv && k < p->argc; k++)
            free((void *)(uintptr_t)p->argv[k]);
        free((void *)(uintptr_t)p->argv);
    }
    for (size_t i = 0; i < t->nenvs; i++) {
        for (size_t k = 0; k < t->envs[i].total; k++)
            free(t->envs[i].vars[k]);
        free(t->envs[i].vars);
    }
    free(t->envs);
    free(t->env_of);
    free(t->p);
    free(t);
}

int ttf_ptable_reaped(const char *dir, uint32_t pid, int sig)
{
    struct stat st;
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return TT_EINVAL;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, TTF_PT_NAME);
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return TT_EIO;          /* no table: nothing to add to */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint8_t b[TTF_PT_HDR + 64], *q = b + TTF_PT_HDR;
    q = ttf_put_uvar(q, pid);
    q = ttf_put_uvar(q, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
    q = ttf_put_uvar(q, (uint64_t)(sig > 0 ? sig : 0));
    q = ttf_put_uvar(q, (uint64_t)getpid());
    q = ttf_put_uvar(q, 0);
    size_t n = (size_t)(q - b) - TTF_PT_HDR;
    ttf_put_u32(b, TTF_PT_MAGIC);
    ttf_put_u16(b + 4, TTF_PT_REAP);
    ttf_put_u16(b + 6, 0);
    ttf_put_u32(b + 8, (uint32_t)n);
    ttf_put_u32(b + 12, ttf_fnv1a(b + TTF_PT_HDR, n));
    ssize_t w = write(fd, b, (size_t)(q - b));
    close(fd);
    return w == (ssize_t)(q - b) ? 0 : TT_EIO;
}
