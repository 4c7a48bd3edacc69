/*
 * safeopen.c - opening the files a trace names (module binaries, build-id
 * copies). A trace may come from someone else, so a recorded path may name
 * a FIFO (open() would block forever), a device (opening some has side
 * effects) or a file planted where others can write. Files are opened
 * without blocking and only when regular; where they lie decides whether
 * their build-id is believed (sym.c: a planted ELF can carry any build-id
 * note).
 * Stage 0 base of format/STAGES.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttf_int.h"

int ttfi_open_regular(const char *path, const char **why)
{
    struct stat st, fst;

    *why = NULL;
    if (stat(path, &st) != 0) {
        *why = strerror(errno);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        errno = EINVAL;
        *why = "not a regular file";
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return -1;
    }
    /* swapped for something else since the stat: refuse it too */
    if (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode)) {
        close(fd);
        errno = EINVAL;
        *why = "not a regular file";
        return -1;
    }
    return fd;
}

int ttfi_read_all(int fd, size_t size, char **buf, size_t *got)
{
    char *b = size < SIZE_MAX ? malloc(size + 1) : NULL;
    size_t n = 0;
    int rc = b ? 0 : TT_ENOMEM;

    while (!rc && n < size) {
        ssize_t r = read(fd, b + n, size - n);
        if (r == 0)
            break;              /* cut short meanwhile */
        if (r < 0 && errno != EINTR)
            rc = TT_EIO;
        n += r > 0 ? (size_t)r : 0;
    }
    close(fd);
    if (rc) {
        free(b);
        return rc;
    }
    b[n] = 0;
    *buf = b;
    *got = n;
    return 0;
}

static int trusted_uid(uid_t u, uid_t also)
{
    return u == 0 || u == geteuid() || u == also;
}

/* 1 if st (of name) is safe for a trusted entry below it (dir: folder). */
static int safe_entry(const struct stat *st, int dir, uid_t also)
{
    if (!trusted_uid(st->st_uid, also))
        return 0;
    if (!(st->st_mode & S_IWOTH))
        return 1;
    /* a world-writable sticky folder (/tmp): others cannot replace what
     * a trusted user put there, and every entry below is checked */
    return dir && (st->st_mode & S_ISVTX);
}

int ttfi_trusted_place(const char *path, int fd, uid_t also, char *where,
                       size_t len)
{
    struct stat st;
    char real[PATH_MAX];

    snprintf(where, len, "%s", path);
    if (fstat(fd, &st) != 0 || !safe_entry(&st, 0, also))
        return 0;
    if (!realpath(path, real))
        return 0;
    for (char *slash = strrchr(real, '/'); slash; slash = strrchr(real, '/')) {
        *slash = 0;
        const char *dir = real[0] ? real : "/";
        if (stat(dir, &st) != 0 || !safe_entry(&st, 1, also)) {
            snprintf(where, len, "%s", dir);
            return 0;
        }
        if (!real[0])
            break;
    }
    return 1;
}
