/*
 * self_module.h - the running test binary as libttcap would record it in a
 * MODULE record (path, load bias, extent, build-id), so unit tests can
 * write traces whose addresses are this binary's own functions and resolve
 * them through its debug info. self_module_load() fills tu_self
 * (self_module.c).
 */
#ifndef TT_TEST_SELF_MODULE_H
#define TT_TEST_SELF_MODULE_H

#include <stddef.h>
#include <stdint.h>

/* This executable as the capture library would record it. */
struct self_module {
    char path[4096];           /* /proc/self/exe resolved */
    uint64_t base, size;       /* load bias, extent of the PT_LOAD segments */
    uint8_t build_id[64];      /* NT_GNU_BUILD_ID bytes */
    size_t build_id_len;
};

extern struct self_module tu_self;

/* Fill tu_self; 0, or -1 if this binary cannot be described. */
int self_module_load(void);

/* Describe the loaded object whose path is `path` (dlopen'ed by the
 * test) into out; 0, or -1 if no such object is loaded or it has no
 * build-id. */
int self_module_find(const char *path, struct self_module *out);

/* The build-id of the ELF file at path (a program a test compiled) into
 * id (64 bytes) and *len; 0, or -1 if it has none. */
int self_module_file_id(const char *path, uint8_t *id, size_t *len);

#endif
