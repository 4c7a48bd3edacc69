/*
 * rel_damage.c - reliability check (a): damaged traces through the reader,
 * the diff engine and every renderer, in one ASan process. For each trace
 * given: every truncation point inside its written bytes (zero padding is
 * skipped: cutting there is the same as cutting at the last written byte),
 * then random damage (bit flips, garbage runs, zeroed runs, a chunk copied
 * over another). Each damaged copy goes through fuzz_reader's walk (counts
 * must agree) and fuzz_diff's reports against the intact trace in both
 * orders. A crash or sanitizer report ends the run (the input is saved to
 * DIR/crash.trc); a case over 20 s is a hang (saved as DIR/hang.trc).
 * -t S runs every S-th truncation only (the short suite).
 * -w DIR -k K also writes K damaged copies there for the tools' own runs.
 * Prints one line: "cases N truncations N mutations N max_ms N".
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LLVMFuzzerTestOneInput rel_reader_one
#include "fuzz_reader.c"   /* tests/fuzz (-I) */
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput rel_diff_one
#include "fuzz_diff.c"
#undef LLVMFuzzerTestOneInput

void __sanitizer_set_death_callback(void (*cb)(void));

static const uint8_t *cur;      /* the case being run */
static size_t cur_len;          /* its length */
static const char *outdir = ".";/* where crash.trc / hang.trc go */
static uint64_t rng = 0x9e3779b97f4a7c15u; /* xorshift state */

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void save(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(cur, 1, cur_len, f);
    fclose(f);
}

static void on_death(void)
{
    save("crash.trc");
}

static void on_alarm(int sig)
{
    (void)sig;
    save("hang.trc");
    static const char m[] = "rel_damage: HANG (case over 20 s), saved hang.trc\n";
    ssize_t r = write(2, m, sizeof m - 1);
    (void)r;
    _exit(124);
}

static uint8_t *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

static double max_ms;           /* slowest case */

/* One damaged copy: the reader walk, then the reports against the intact
 * trace both ways. */
static void run_case(const uint8_t *buf, size_t len, const ttf_trace *intact)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    cur = buf;
    cur_len = len;
    alarm(20);
    rel_reader_one(buf, len);
    ttf_trace *t;
    ttf_error err;
    if (!sink)
        sink = fopen("/dev/null", "w");
    if (ttf_open_mem(buf, len, "damaged.trc", &t, &err) == 0) {
        report(intact, t, (int)(len & 7));
        report(t, intact, (int)(len >> 3 & 7));
        ttf_close(t);
    }
    alarm(0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    if (ms > max_ms)
        max_ms = ms;
}

/* Length of the written part: up to the last non-zero byte. */
static size_t written(const uint8_t *b, size_t len)
{
    while (len && !b[len - 1])
        len--;
    return len;
}

/* Every truncation point k: k within 64 bytes after a written byte, or a
 * 4 KiB boundary. The number of cases run. */
static long stride = 1;         /* -t: every stride-th truncation point */

static uint64_t truncations(const uint8_t *b, size_t len, const ttf_trace *intact)
{
    uint64_t n = 0, seen = 0;
    size_t last = (size_t)-1;
    for (size_t k = 0; k <= len; k++) {
        if (k && b[k - 1])
            last = k - 1;
        if (k % 4096 && (last == (size_t)-1 || k - last > 64))
            continue;
        if (seen++ % (uint64_t)stride)
            continue;
        run_case(b, k, intact);
        n++;
    }
    return n;
}

/* Damage one copy of src in place: 1..8 bit flips, a garbage run, a zeroed
 * run, or a 4 KiB block copied over another. Offsets mostly inside the
 * written part. */
static void damage(uint8_t *b, size_t len, size_t used)
{
    size_t span = used + 64 < len ? used + 64 : len;
    size_t at = (size_t)(rnd() % span), n = 1 + (size_t)(rnd() % 4096);
    if (n > len - at)
        n = len - at;
    switch (rnd() % 4) {
    case 0:
        for (uint64_t i = 0, k = 1 + rnd() % 8; i < k; i++)
            b[rnd() % span] ^= (uint8_t)(1u << (rnd() % 8));
        break;
    case 1:
        for (size_t i = 0; i < n; i++)
            b[at + i] = (uint8_t)rnd();
        break;
    case 2:
        memset(b + at, 0, n);
        break;
    default:
        if (len >= 8192) {
            size_t from = (size_t)(rnd() % (len / 4096)) * 4096, to = (size_t)(rnd() % (len / 4096)) * 4096;
            memmove(b + to, b + from, 4096);
        }
    }
}

static void write_sample(const char *dir, int i, const uint8_t *b, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/d%05d.trc", dir, i);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(b, 1, len, f);
        fclose(f);
    }
}

int main(int argc, char **argv)
{
    long muts = 10000, keep = 0;
    const char *wdir = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "n:s:w:k:o:t:")) != -1) {
        if (opt == 't')
            stride = atol(optarg) > 0 ? atol(optarg) : 1;
        else if (opt == 'n')
            muts = atol(optarg);
        else if (opt == 's')
            rng = (uint64_t)atoll(optarg) * 2654435761u + 1;
        else if (opt == 'w')
            wdir = optarg;
        else if (opt == 'k')
            keep = atol(optarg);
        else if (opt == 'o')
            outdir = optarg;
    }
    int ntr = argc - optind;
    if (ntr < 1) {
        fprintf(stderr, "usage: rel_damage [-n MUTATIONS] [-t STRIDE] [-s SEED] [-o DIR] [-w DIR -k K] TRACE...\n");
        return 2;
    }
    __sanitizer_set_death_callback(on_death);
    signal(SIGALRM, on_alarm);
    uint64_t ntrunc = 0, nmut = 0;
    for (int i = 0; i < ntr; i++) {
        size_t len;
        uint8_t *src = load(argv[optind + i], &len);
        ttf_trace *intact;
        ttf_error err;
        if (!src || ttf_open_mem(src, len, argv[optind + i], &intact, &err) != 0) {
            fprintf(stderr, "rel_damage: cannot read %s\n", argv[optind + i]);
            return 2;
        }
        size_t used = written(src, len);
        ntrunc += truncations(src, len, intact);
        uint8_t *b = malloc(len);
        long share = muts / ntr + (i < muts % ntr);
        for (long m = 0; m < share; m++, nmut++) {
            memcpy(b, src, len);
            damage(b, len, used);
            run_case(b, len, intact);
            if (wdir && nmut < (uint64_t)keep)
                write_sample(wdir, (int)nmut, b, len);
        }
        free(b);
        ttf_close(intact);
        free(src);
    }
    printf("cases %llu truncations %llu mutations %llu max_ms %.0f\n",
           (unsigned long long)(ntrunc + nmut), (unsigned long long)ntrunc,
           (unsigned long long)nmut, max_ms);
    return 0;
}
