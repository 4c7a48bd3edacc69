/*
 * cap_store.c - symbols that outlive the binary: a copy of each instrumented
 * module, keyed by build-id, in <store>/.build-id/xx/yyyy... (the layout of
 * gdb's and elfutils' debug directories). The store is the trace's folder
 * unless TTCAP_STORE names another (or "none"). A module already there costs
 * one stat; a new build is copied once (reflink, else copy_file_range, else
 * read/write) to a temporary name and renamed, so a reader never sees half a
 * file. Only modules that call the -finstrument-functions hooks or values
 * mode's __fentry__ (or hold libttcap: a static link) are kept: libc and friends hold no traced address. Slow path
 * only: trace start and module scans after dlopen.
 *
 * A copy is readable by whom the binary is readable by, no more (owner
 * read, plus group and other read where the binary grants them): a
 * private 0700 program's copy is 0400, never world-readable. A copy that
 * would pass RLIMIT_FSIZE is not made (the kernel would kill the program
 * with SIGXFSZ), and SIGXFSZ is held around the copy in case the limit
 * drops under us.
 */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cap_int.h"

/* Choose the store from TTCAP_STORE and the trace's (absolute) path. */
void cap_store_init(void)
{
    const char *e = cap.store_env;  /* TTCAP_STORE, read at start (cap_init.c) */
    cap.store[0] = 0;
    if (e && (strcmp(e, "none") == 0 || strcmp(e, "0") == 0))
        return;
    if (e && *e) {
        snprintf(cap.store, sizeof cap.store, "%s", e);
        return;
    }
    snprintf(cap.store, sizeof cap.store, "%s", cap.path);
    char *slash = strrchr(cap.store, '/');
    if (slash)
        *(slash == cap.store ? slash + 1 : slash) = 0;
    else
        cap.store[0] = 0;
}

/* Copy the whole of fd in to fd out. 0 or -1. */
static int copy_fd(int in, int out)
{
    if (ioctl(out, FICLONE, in) == 0)
        return 0;
    ssize_t n;
    while ((n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0)) > 0)
        ;
    if (n == 0)
        return 0;
    if (lseek(in, 0, SEEK_SET) != 0 || ftruncate(out, 0) != 0 ||
        lseek(out, 0, SEEK_SET) != 0)
        return -1;
    static char buf[64 << 10];  /* used under mod_lock only */
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            return -1;
    return n == 0 ? 0 : -1;
}

/* Copy src to dst through a temporary name: readable as src is (read
 * bits only, owner always), regular files only, within RLIMIT_FSIZE. */
static int copy_file(const char *src, const char *dst)
{
    char tmp[CAP_PATH_MAX + 192];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", dst, (int)getpid());
    int in = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (in < 0)
        return -1;
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size > cap_fsize_limit()) {
        close(in);
        return -1;
    }
    mode_t mode = S_IRUSR | (st.st_mode & (S_IRGRP | S_IROTH));
    int out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    int rc = -1;
    if (out >= 0) {
        struct cap_xfsz g;
        cap_xfsz_hold(&g);
        rc = copy_fd(in, out);
        cap_xfsz_release(&g);
        close(out);
        if (rc == 0)
            rc = rename(tmp, dst);
        if (rc != 0)
            unlink(tmp);
    }
    close(in);
    return rc;
}

/* 1 if folder dir is one a reader trusts a copy in (format/safeopen.c,
 * which follows links as we do here): a folder, ours or root's, writable
 * by others only when sticky. A copy in another user's world-writable
 * .build-id would be made and then ignored by every reader (anyone could
 * have put it there). */
static int store_dir_ok(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    if (st.st_uid != 0 && st.st_uid != geteuid())
        return 0;
    return !(st.st_mode & S_IWOTH) || (st.st_mode & S_ISVTX);
}

/* No copies in the store: one stderr line says why, and the store is off
 * for the rest of the run. */
static void store_refused(const char *dir)
{
    char msg[4 * CAP_PATH_MAX + 256];
    size_t o = 0;
    cap_put_esc(msg, sizeof msg, &o, "ttcap: ");
    cap_put_esc(msg, sizeof msg, &o, dir);
    cap_put_esc(msg, sizeof msg, &o, " is another user's, or others can write it: "
                "no copies of the modules kept there (a reader would not trust "
                "them); TTCAP_STORE=DIR keeps them elsewhere");
    if (o + 1 < sizeof msg)
        msg[o++] = '\n';
    ssize_t r = write(2, msg, o);
    (void)r;
    cap.store[0] = 0;
}

/* Keep a copy of the module info (file path) in the store, once; is_main:
 * it is the program (which may hold libttcap, linked statically). */
void cap_store_module(const struct dl_phdr_info *info, const char *path, int is_main)
{
    const uint8_t *id;
    size_t nid;
    if (!cap.store[0])
        return;
    cap_elf_build_id(info, &id, &nid);
    if (nid < 2 || nid > 64)
        return;
    struct cap_refs rf;
    cap_elf_refs(info, (uintptr_t)&cap_hook_enter, &rf);
    if (!rf.hooks && !rf.fentry && !(rf.self && is_main))
        return;                 /* uninstrumented, or libttcap.so itself */
    char hex[132], dst[CAP_PATH_MAX + 160];
    for (size_t i = 0; i < nid; i++)
        snprintf(hex + 2 * i, 3, "%02x", id[i]);
    int n = snprintf(dst, sizeof dst, "%s/.build-id/%.2s", cap.store, hex);
    if (n <= 0 || (size_t)n >= sizeof dst - 132)
        return;
    snprintf(dst + n, sizeof dst - (size_t)n, "/%s", hex + 2);
    struct stat st;
    if (stat(dst, &st) == 0)
        return;                 /* this build is kept already */
    dst[n - 3] = 0;             /* <store>/.build-id */
    mkdir(dst, 0755);
    if (!store_dir_ok(dst)) {
        store_refused(dst);
        return;
    }
    dst[n - 3] = '/';
    dst[n] = 0;                 /* <store>/.build-id/xx */
    mkdir(dst, 0755);
    if (!store_dir_ok(dst)) {
        store_refused(dst);
        return;
    }
    dst[n] = '/';
    copy_file(path, dst);
}
