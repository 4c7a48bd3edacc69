/* c-blosc-unshuffletail: a sensor logger archives its records with Blosc
 * (bitshuffle, 2 threads, 4 KiB blocks, no splits) to archive.blo; a later
 * export pass reads the archive back into one reused buffer and checks
 * each record's checksum trailer. A record is N doubles followed by a
 * 4-byte checksum of them, so its size is never a multiple of the type
 * size (8). (The same program as c-blosc-bitleftover's; here the reading
 * side of the library is the one without the fix.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blosc.h"

#define NRECORDS 40
#define MAXSAMPLES 1200

struct record {
    double samples[MAXSAMPLES];
    uint32_t sum; /* written right after the last sample */
};

/* the samples of record i (a slowly varying temperature, in 1/4 degrees) */
static int take_samples(int i, double *out)
{
    int n = 1100 + (i * 17) % 60; /* the flush jitter */
    for (int j = 0; j < n; j++)
        out[j] = 200.0 + ((i * 7 + j / 16) % 23) * 0.25;
    return n;
}

/* FNV-1a over the samples' bytes */
static uint32_t record_sum(const double *s, int n)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < (size_t)n * sizeof(double); k++)
        h = (h ^ p[k]) * 16777619u;
    return h;
}

/* the record as stored: n samples, then the checksum */
static size_t pack_record(unsigned char *buf, const double *s, int n)
{
    uint32_t sum = record_sum(s, n);
    memcpy(buf, s, (size_t)n * sizeof(double));
    memcpy(buf + (size_t)n * sizeof(double), &sum, sizeof sum);
    return (size_t)n * sizeof(double) + sizeof sum;
}

static int write_archive(const char *path)
{
    static double s[MAXSAMPLES];
    static unsigned char raw[sizeof(struct record)];
    static unsigned char packed[sizeof(struct record) + BLOSC_MAX_OVERHEAD];
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    for (int i = 0; i < NRECORDS; i++) {
        int n = take_samples(i, s);
        size_t len = pack_record(raw, s, n);
        int c = blosc_compress(5, BLOSC_BITSHUFFLE, sizeof(double), len, raw,
                               packed, sizeof packed);
        if (c <= 0) {
            fclose(f);
            return -1;
        }
        uint32_t clen = (uint32_t)c;
        fwrite(&clen, sizeof clen, 1, f);
        fwrite(packed, 1, (size_t)c, f);
    }
    return fclose(f);
}

/* read record i back; 0 when its checksum holds */
static int check_record(int i, const unsigned char *raw, int len)
{
    int n = (len - (int)sizeof(uint32_t)) / (int)sizeof(double);
    uint32_t stored;
    memcpy(&stored, raw + (size_t)n * sizeof(double), sizeof stored);
    if (stored != record_sum((const double *)raw, n)) {
        fprintf(stderr, "archive.blo: record %d (%d samples): checksum %08x, "
                "stored %08x\n", i, n, record_sum((const double *)raw, n), stored);
        return -1;
    }
    return 0;
}

static int export_archive(const char *path)
{
    static unsigned char packed[sizeof(struct record) + BLOSC_MAX_OVERHEAD];
    static unsigned char raw[sizeof(struct record)];
    uint32_t clen;
    int i = 0;
    double total = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    while (fread(&clen, sizeof clen, 1, f) == 1) {
        if (clen > sizeof packed || fread(packed, 1, clen, f) != clen)
            break;
        int len = blosc_decompress(packed, raw, sizeof raw);
        if (len <= 0 || check_record(i, raw, len) != 0) {
            fclose(f);
            return -1;
        }
        total += ((const double *)raw)[0];
        i++;
    }
    fclose(f);
    if (i != NRECORDS)
        return -1;
    printf("exported %d records (first samples sum %.2f)\n", i, total);
    return 0;
}

int main(void)
{
    blosc_init();
    blosc_set_nthreads(2);
    blosc_set_compressor("zlib");
    blosc_set_blocksize(4096);
    blosc_set_splitmode(BLOSC_NEVER_SPLIT);
    int rc = write_archive("archive.blo");
    if (rc == 0)
        rc = export_archive("archive.blo");
    blosc_destroy();
    return rc == 0 ? 0 : 1;
}
