/*
 * cap_layout.h - the offsets and constants the assembly fast paths of
 * values mode (the return trampoline's EXIT, cap_tramp.S, and
 * __fentry__'s ENTER, cap_fentry.S) read libttcap's C state by: struct
 * tstate (cap_int.h), struct shadow and struct shent (cap_values.h), the
 * call-site and SSE state (struct ttf_sites, cap_xs_of), the string table
 * (struct cap_vtab, cap_vstr.h). Plain macros, for the assembler and C
 * alike; cap_shadow.c (the EXIT's) and cap_values.c (the ENTER's) check
 * every one against the C declarations at compile time, so a layout
 * change that forgets this file does not build.
 */
#ifndef CAP_LAYOUT_H
#define CAP_LAYOUT_H

/* struct tstate */
#define CAPL_T_POS 0x00         /* pos */
#define CAPL_T_LIMIT 0x08       /* limit */
#define CAPL_T_TSC 0x18         /* tsc */
#define CAPL_T_DEPTH 0x20       /* depth (int32) */
#define CAPL_T_FLAGS 0x24       /* busy, timed, state, vals: one 32-bit word */
#define CAPL_T_SINCE 0x28       /* since (u8) */
#define CAPL_T_EV 0x2a          /* ev (u16) */
#define CAPL_T_SKIP 0x30        /* skip (u8) */
#define CAPL_T_UX 0x31          /* ux (u8): the lazy clock's untimed EXIT */
#define CAPL_T_RNG 0x2c         /* rng (u32) */
#define CAPL_T_WARM 0x32        /* warm (u16) */
#define CAPL_T_CACHE 0x38       /* cache[TTF_SLOTS] */
#define CAPL_T_EVAT 0x238       /* evat[CAP_EVAT] (u16 each) */
#define CAPL_T_SITES 0x2b8      /* sites */
#define CAPL_T_VPREV 0x2c0      /* vprev[6] */
#define CAPL_T_VSTRIDE 0x2f0    /* vstride[6] */
#define CAPL_T_VSTR 0x3a8       /* vstr */
/* the flags of a thread whose EXIT may take the assembly path: busy 0,
 * timed CAP_CLOCK_SPARSE or CAP_CLOCK_LAZY (the timed byte has the bit
 * CAPL_TIMED_SPARSE; lazy's low bit is its ux at an untimed EXIT), vals 1
 * (state is not looked at); its ENTER:
 * busy 0, vals 1. Tested byte by byte as the C code stores them (a
 * 32-bit load of a byte just stored waits for the store to retire) */
#define CAPL_TIMED_SPARSE 2     /* the timed byte (CAPL_T_FLAGS + 1) */
#define CAPL_TIMED_LAZY 3       /* ... with the lazy clock (format 1.8); the
                                   chain clock's is 7 (format 1.9): bit 2
                                   is its ux after an untimed ENTER */
#define CAPL_VALS_ON 1          /* the vals byte (CAPL_T_FLAGS + 3) */
#define CAPL_SITES_LAST 0xa000  /* struct ttf_sites' last; path[] at 0 */
#define CAPL_SITES_PMASK 4095   /* TTF_SITE_PATHS - 1 */
#define CAPL_SITES_WAYS 0x8000  /* ways[TTF_SITE_SLOTS][4] */
#define CAPL_SITES_SMASK 255    /* TTF_SITE_SLOTS - 1 */
#define CAPL_XS_X 0xa008        /* xmm0..7 at the last ENTER, from sites */
#define CAPL_XS_RET 0xa048      /* xmm0 at the last EXIT, from sites */

/* struct shadow, struct shent */
#define CAPL_SH_E 0x00
#define CAPL_SH_N 0x08
#define CAPL_SH_CAP 0x0c
#define CAPL_SHENT_SIZE 32
#define CAPL_SHENT_RET 0x00
#define CAPL_SHENT_SLOT 0x08
#define CAPL_SHENT_FN 0x10
#define CAPL_SHENT_CSLOT 0x18   /* TTF_SLOT(fn), < 64 */

/* the sparse clock's constants (cap_int.h) and the tags (ttf_wire.h) */
#define CAPL_BIG_CALL 64
#define CAPL_UNTIMED_RUN 8
#define CAPL_WARM 4096
#define CAPL_EVAT_MASK 63
#define CAPL_SLOTS_MASK 63
#define CAPL_SAMPLE_SHIFT 26    /* 32 - CAP_SAMPLE_BITS */
#define CAPL_TIMED 0x47         /* the sparse clock's EXIT prefixes */
#define CAPL_SAMPLE 0x48
#define CAPL_EXIT_HIT 0xc0
#define CAPL_ENTER_HIT 0x80
#define CAPL_SITE_WAY 0x42
#define CAPL_SITE_NEW 0x46
#define CAPL_MASK_STRIDE 0x40
#define CAPL_MASK_XMM 0x80
#define CAPL_BUSY_HOT 2

/* struct cap_vtab and struct cap_vt_ent (cap_vstr.h): the string table
 * (one word: the entries' address, 64-aligned, with the hash's bits in
 * its low 6) and its hash (cap_vt_hash) */
#define CAPL_VT_W 0x00
#define CAPL_VT_BITS 63
#define CAPL_VTENT_SIZE 16
#define CAPL_VTENT_FN 0x00
#define CAPL_VTENT_HOME 0x0b    /* home: bits of the functions homed there */
#define CAPL_VT_MUL 0x9e3779b97f4a7c15
/* room a STRINGS record and its ENTER need: pos + CAPL_STR_ROOM <= limit
 * (cap_values.c strings_room), and the record's tag (ttf_wire.h) */
#define CAPL_STR_ROOM 183
#define CAPL_R_STRINGS 0x30

#endif
