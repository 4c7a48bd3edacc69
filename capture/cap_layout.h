/*
 * cap_layout.h - the offsets and constants the return trampoline's
 * assembly fast path (cap_tramp.S) reads libttcap's C state by: struct
 * tstate (cap_int.h), struct shadow and struct shent (cap_values.h), the
 * SSE state after struct ttf_sites (cap_xs_of). Plain macros, for the
 * assembler and C alike; cap_shadow.c checks every one against the C
 * declarations at compile time, so a layout change that forgets this
 * file does not build.
 */
#ifndef CAP_LAYOUT_H
#define CAP_LAYOUT_H

/* struct tstate */
#define CAPL_T_POS 0x00         /* pos */
#define CAPL_T_LIMIT 0x08       /* limit */
#define CAPL_T_DEPTH 0x20       /* depth (int32) */
#define CAPL_T_FLAGS 0x24       /* busy, timed, state, vals: one 32-bit word */
#define CAPL_T_SINCE 0x28       /* since (u8) */
#define CAPL_T_EV 0x2a          /* ev (u16) */
#define CAPL_T_SKIP 0x30        /* skip (u8) */
#define CAPL_T_WARM 0x32        /* warm (u16) */
#define CAPL_T_CACHE 0x38       /* cache[TTF_SLOTS] */
#define CAPL_T_EVAT 0x238       /* evat[CAP_EVAT] (u16 each) */
#define CAPL_T_SITES 0x2b8      /* sites */
/* the flags word of a thread whose EXIT may take the assembly path:
 * busy 0, timed CAP_CLOCK_SPARSE, vals 1 (state is not looked at) */
#define CAPL_FLAGS_MASK 0xff00ffff
#define CAPL_FLAGS_SPARSE 0x01000200
#define CAPL_XS_RET 0xa048      /* xmm0 at the last EXIT, from sites */

/* struct shadow, struct shent */
#define CAPL_SH_E 0x00
#define CAPL_SH_N 0x08
#define CAPL_SHENT_SIZE 32
#define CAPL_SHENT_RET 0x00
#define CAPL_SHENT_SLOT 0x08
#define CAPL_SHENT_FN 0x10

/* the sparse clock's constants (cap_int.h) and the tags (ttf_wire.h) */
#define CAPL_BIG_CALL 64
#define CAPL_UNTIMED_RUN 8
#define CAPL_WARM 4096
#define CAPL_EVAT_MASK 63
#define CAPL_SLOTS_MASK 63
#define CAPL_EXIT_HIT 0xc0
#define CAPL_BUSY_HOT 2

#endif
