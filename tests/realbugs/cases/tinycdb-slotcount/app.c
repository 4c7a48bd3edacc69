/* app.c - the tinycdb-slotcount case's application (benchmark code):
 * writes a constant database of 2000 records ("key0000" -> "val0", ...)
 * with cdb_make_start / cdb_make_add / cdb_make_finish into db.cdb in the
 * working folder, maps it (cdb_init) and reads every key back in order
 * with cdb_findinit / cdb_findnext (the lookup API for keys that may have
 * several values). Exit 0 when every key is found with its value; the
 * first key that is missing or has another value is reported, exit 1. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cdb.h"

#define NREC 2000

static int make_db(const char *path)
{
    struct cdb_make cdbm;
    char key[16], val[16];
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    cdb_make_start(&cdbm, fd);
    for (int i = 0; i < NREC; i++) {
        snprintf(key, sizeof key, "key%04d", i);
        snprintf(val, sizeof val, "val%d", i);
        if (cdb_make_add(&cdbm, key, (unsigned)strlen(key), val, (unsigned)strlen(val)) < 0)
            return -1;
    }
    if (cdb_make_finish(&cdbm) < 0)
        return -1;
    return close(fd);
}

static int check_key(struct cdb *cdb, int i)
{
    struct cdb_find cdbf;
    char key[16], val[16];
    snprintf(key, sizeof key, "key%04d", i);
    snprintf(val, sizeof val, "val%d", i);
    if (cdb_findinit(&cdbf, cdb, key, (unsigned)strlen(key)) <= 0 ||
        cdb_findnext(&cdbf) <= 0) {
        printf("%s: not found\n", key);
        return 1;
    }
    if (cdb_datalen(cdb) != strlen(val) ||
        memcmp(cdb_get(cdb, cdb_datalen(cdb), cdb_datapos(cdb)), val, strlen(val)) != 0) {
        printf("%s: wrong value\n", key);
        return 1;
    }
    return 0;
}

int main(void)
{
    struct cdb cdb;
    int fd;
    if (make_db("db.cdb") < 0) {
        perror("make db.cdb");
        return 2;
    }
    fd = open("db.cdb", O_RDONLY);
    if (fd < 0 || cdb_init(&cdb, fd) < 0) {
        perror("db.cdb");
        return 2;
    }
    for (int i = 0; i < NREC; i++)
        if (check_key(&cdb, i))
            return 1;
    cdb_free(&cdb);
    close(fd);
    printf("%d records read back\n", NREC);
    return 0;
}
