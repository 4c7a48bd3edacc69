/* lmdb-ovpages / lmdb-ovspill: the application's record contents and its
 * check of what it reads back (app.c writes, then reads) */
#include <lmdb.h>
#include <stdio.h>
#include <string.h>

void fill(unsigned char *buf, size_t size, int rec)
{
    unsigned x = 2166136261u ^ (unsigned)rec;
    for (size_t i = 0; i < size; i++) {
        x = x * 16777619u + 7;
        buf[i] = (unsigned char)(x >> 24);
    }
}

/* 0 when record REC reads back as written */
int check_record(MDB_txn *txn, MDB_dbi dbi, int rec, size_t size, unsigned char *want)
{
    char k[16];
    MDB_val key, val;
    snprintf(k, sizeof k, "rec%03d", rec);
    key.mv_size = strlen(k);
    key.mv_data = k;
    if (mdb_get(txn, dbi, &key, &val))
        return -1;
    fill(want, size, rec);
    if (val.mv_size != size || memcmp(val.mv_data, want, size))
        return -1;
    return 0;
}

void report_bad(int rec)
{
    fprintf(stderr, "rec%03d: read back differs from what was written\n", rec);
}

