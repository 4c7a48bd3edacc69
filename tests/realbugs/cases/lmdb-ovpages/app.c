/* lmdb-ovpages / lmdb-ovspill: an application of LMDB (liblmdb) that
 * stores 24 records of SIZE bytes (argv[1]: too big for a leaf page, so
 * each goes to overflow pages) in one write transaction, commits, stores
 * an index record in a second one, then reads every record back in a read
 * transaction and checks it against what it wrote. The environment is
 * opened with MDB_WRITEMAP (pages are written in the map). */
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NREC 24

/* records.c */
void fill(unsigned char *buf, size_t size, int rec);
int check_record(MDB_txn *txn, MDB_dbi dbi, int rec, size_t size, unsigned char *want);
void report_bad(int rec);

static int put_records(MDB_env *env, MDB_dbi dbi, size_t size)
{
    MDB_txn *txn;
    unsigned char *buf = malloc(size);
    char k[16];
    int rc = mdb_txn_begin(env, NULL, 0, &txn);
    for (int i = 0; rc == 0 && i < NREC; i++) {
        MDB_val key, val;
        snprintf(k, sizeof k, "rec%03d", i);
        key.mv_size = strlen(k);
        key.mv_data = k;
        fill(buf, size, i);
        val.mv_size = size;
        val.mv_data = buf;
        rc = mdb_put(txn, dbi, &key, &val, 0);
    }
    free(buf);
    if (rc)
        mdb_txn_abort(txn);
    else
        rc = mdb_txn_commit(txn);
    return rc;
}

static int put_index(MDB_env *env, MDB_dbi dbi)
{
    MDB_txn *txn;
    MDB_val key = { 5, "index" }, val = { 8, "24 recs" };
    int rc = mdb_txn_begin(env, NULL, 0, &txn);
    if (rc == 0)
        rc = mdb_put(txn, dbi, &key, &val, 0);
    return rc ? rc : mdb_txn_commit(txn);
}

int main(int argc, char **argv)
{
    size_t size = argc > 1 ? strtoul(argv[1], NULL, 10) : 8000;
    MDB_env *env;
    MDB_dbi dbi;
    MDB_txn *txn;
    int rc, bad = 0;

    mkdir("db", 0755);
    if ((rc = mdb_env_create(&env)) || (rc = mdb_env_set_mapsize(env, 16 << 20)) ||
        (rc = mdb_env_open(env, "db", MDB_WRITEMAP | MDB_NOSYNC, 0644)))
        goto fail;
    if ((rc = mdb_txn_begin(env, NULL, 0, &txn)) || (rc = mdb_dbi_open(txn, NULL, 0, &dbi)) ||
        (rc = mdb_txn_commit(txn)))
        goto fail;
    if ((rc = put_records(env, dbi, size)) || (rc = put_index(env, dbi)))
        goto fail;

    unsigned char *want = malloc(size);
    if ((rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn)))
        goto fail;
    for (int i = 0; i < NREC; i++)
        if (check_record(txn, dbi, i, size, want)) {
            report_bad(i);
            bad++;
        }
    mdb_txn_abort(txn);
    free(want);
    mdb_env_close(env);
    printf("%d records of %zu bytes, %d bad\n", NREC, size, bad);
    return bad != 0;
fail:
    fprintf(stderr, "lmdb: %s\n", mdb_strerror(rc));
    return 2;
}
