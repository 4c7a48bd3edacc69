/*
 * ttf_wire.h - the bytes of trace format v1.2, shared by every writer and the
 * reader. Private to tt (capture/ and format/); users read ttfmt.h.
 *
 * The layout is documented twice: here, as the tables the code uses, and in
 * format/FORMAT.md, the versioned spec. Change both in the same commit.
 *
 * FILE
 *   [file header, 64 bytes, zero-padded to data_offset (4096)]
 *   [chunk 0][chunk 1]...          each chunk_size bytes, at
 *                                  data_offset + i * chunk_size
 *
 * FILE HEADER (all integers little-endian)
 *   OFFSET SIZE FIELD
 *   0      8    magic "\x89TTF\r\n\x1a\n" (catches 7-bit and CRLF damage)
 *   8      2    version_major      (1)
 *   10     2    version_minor      (2 if the file uses call sites (v1.2),
 *                                   else 1 if values (v1.1), else 0)
 *   12     2    min_reader_major   (oldest reader major that can read it: 1)
 *   14     2    header_size        (bytes of this header that are defined: 64, or
 *                                   128 with TTF_OPT_CUTINFO)
 *   16     4    endian             0x01020304 (reads back as 04 03 02 01)
 *   20     4    required features  (TTF_REQ_*; unknown bit => refuse)
 *   24     4    optional features  (TTF_OPT_*; unknown bit => ignore)
 *   28     4    chunk_size         (power of two, 4 KiB .. 64 MiB)
 *   32     4    data_offset        (first chunk; multiple of 4096)
 *   36     4    flags              (TTF_FLAG_*; CLOSED set by a clean end,
 *                                   with EXEC (v1.3) when that end is an exec)
 *   40     4    exit_status        (valid when TTF_FLAG_CLOSED)
 *   44     4    reserved (0)
 *   48     8    tsc_hz             (counter ticks per second; 0 = unknown)
 *   56     8    start_realtime_ns  (CLOCK_REALTIME when the trace began)
 *   with TTF_OPT_CUTINFO (v1.1, header_size 128; the writer keeps them in the
 *   mapped header page, so they survive a killed writer):
 *   64     8    cut_events         events lost to cuts (a thread that could get
 *                                  no chunk: disk full, write error, file size
 *                                  limit) and NOT in any LOST record (a thread
 *                                  that gets a chunk again writes a LOST record
 *                                  for its gap and takes it back off here):
 *                                  total lost = LOST records + cut_events.
 *                                  Published in batches: after a SIGKILL it may
 *                                  be short by < 256 per cut thread (the cut
 *                                  table below is exact)
 *   72     4    cut_threads        threads ever cut (also those never given a chunk)
 *   76     4    cut_reason         TTF_LOST_* of the first cut (0 = never cut)
 *   80     8    cut_realtime_ns    CLOCK_REALTIME of the first cut
 *   88     8    end_offset         (v1.4: 0, or the length a clean end cut
 *                                   the file to, inside its last slot)
 *   96     32   reserved (0)
 *   128 .. data_offset: the CUT TABLE, one 32-byte entry per cut thread in the
 *   order they were cut (threads beyond its room are in the totals only):
 *     0   4    thread index + 1 (0 = unused entry; stored last)
 *     4   4    tid
 *     8   8    lost: that thread's events lost to cuts, not in a LOST record
 *              (stored at every lost event: exact even after a SIGKILL)
 *     16  8    CLOCK_REALTIME ns of the thread's first cut
 *     24  4    flags: TTF_CUTF_NOCHUNK the thread was cut before its first
 *              chunk (it has no records unless RESUMED), TTF_CUTF_ENDED it
 *              ended, TTF_CUTF_RESUMED it got a chunk later
 *     28  4    reason (TTF_LOST_*)
 *   Readers: lost to cuts = max(cut_events, sum of the entries' lost).
 *
 * CHUNK HEADER (48 bytes; magic written last, so a half-claimed chunk reads
 * as unused)
 *   0      4    magic 'TTCK' (0x4b435454)
 *   4      4    thread index (creation order, from 0)
 *   8      4    seq (per-thread chunk sequence, from 0; gaps = lost data)
 *   12     2    flags (TTF_CHUNK_TIMED: hot events carry a time delta;
 *                TTF_CHUNK_VALUES: hot events carry values, see below;
 *                TTF_CHUNK_SPARSE (v1.4, with TIMED): only the EXITs
 *                after a TIMED prefix carry a time delta;
 *                TTF_CHUNK_LAZY (v1.7, with SPARSE; with VALUES only
 *                in v1.8 files, TTF_REQ_VLAZY): the ENTERs too;
 *                TTF_CHUNK_CHAIN (v1.9, with LAZY, file has
 *                TTF_REQ_CHAIN): an ENTER after an untimed ENTER too)
 *   14     2    header_size (48)
 *   16     4    depth (signed call depth of the thread at chunk start)
 *   20     4    reserved (0)
 *   24     8    tsc at chunk start (base of this chunk's time deltas)
 *   32     8    CLOCK_MONOTONIC ns at that tsc   } a clock-sync point
 *   40     8    CLOCK_REALTIME ns at that tsc    }
 *
 * RECORDS (after the chunk header, until a 0x00 byte or the chunk end).
 * Each chunk decodes on its own: the function cache, previous address and
 * running tsc restart at every chunk (running tsc = chunk tsc).
 *   tag 0x00          end of data in this chunk (the file is zero-filled)
 *   tag 0x80|slot     ENTER, function = cache[slot]   [+ uvar tdelta if TIMED]
 *   tag 0xC0|slot     EXIT,  function = cache[slot]   [+ uvar tdelta if TIMED]
 *   tag 0x40          ENTER miss: svar (addr - prev_addr) [+ uvar tdelta]
 *   tag 0x41          EXIT miss:  svar (addr - prev_addr) [+ uvar tdelta]
 *                     a miss sets cache[TTF_SLOT(addr)] = addr, prev = addr
 *   tag 0x01..0x3F    extended record: uvar length, then length payload bytes
 *                     0x01..0x1F required (unknown => corrupt/unsupported)
 *                     0x20..0x3F optional (unknown => skipped by length)
 *   tag 0x42..0x45    SITE_WAY (v1.2, only with TTF_REQ_SITES): the ENTER
 *                     right after (hit or miss) has the call site in way
 *                     (tag - 0x42) of its site slot (TTF_SITE_SLOT of its
 *                     function; struct ttf_sites below)
 *   tag 0x46          SITE_NEW (v1.2, only with TTF_REQ_SITES): svar (site -
 *                     last_site); the ENTER right after has that call site
 *                     Any other ENTER has its predicted call site (0 = not
 *                     recorded): the path table's for its function after
 *                     the previous ENTER's site, else way 0 of its site
 *                     slot; every ENTER moves the site state on
 *                     (ttf_site_advance), which restarts at 0 in every
 *                     chunk. A prefix not followed by an ENTER is corrupt.
 *                     EXIT records carry no site.
 *   tag 0x47          TIMED (v1.4, only in a TTF_CHUNK_SPARSE chunk): the
 *                     EXIT right after (hit or miss) carries its tdelta; an
 *                     EXIT without it carries none: its time is not
 *                     measured (readers take the time of the chunk's next
 *                     record that carries one). ENTERs always carry theirs,
 *                     but in a TTF_CHUNK_LAZY chunk (v1.7), where an ENTER
 *                     too carries its tdelta only after TIMED (written
 *                     after its call-site prefix, if any).
 *                     A prefix not followed by an EXIT (or, in a lazy
 *                     chunk, an ENTER) is corrupt.
 *   tag 0x48          SAMPLE (v1.4, sparse chunks): as TIMED, for an EXIT
 *                     the writer drew at random among those it would
 *                     have left untimed: readers estimate the untimed
 *                     EXITs of each function from them (FORMAT.md 4.5)
 *   tag 0x49..0x7F    invalid in v1 (0x42..0x46 too without TTF_REQ_SITES,
 *                     0x47, 0x48 outside a sparse chunk)
 * In a TTF_CHUNK_VALUES chunk (v1.1, file has TTF_REQ_VALUES) every ENTER,
 * hit or miss, after its tdelta, is followed by
 *                     u8 mask: bit i = argument register i is given (rdi,
 *                     rsi, rdx, rcx, r8, r9 = bits 0..5), bit 6 = STRIDE
 *                     (bit 7 set = corrupt), then per set bit in bit order
 *                     svar d = (int64)(value - prev[i]); a register not
 *                     given is prev[i] without STRIDE, prev[i] + stride[i]
 *                     with it; then stride[i] = value - prev[i] and
 *                     prev[i] = value for all six (prev = the registers at
 *                     the previous ENTER of this chunk, prev and stride 0
 *                     at its start)
 * and every EXIT, hit or miss, after its tdelta, by
 *                     svar rax (the return register, absolute)
 * In a chunk that also has TTF_CHUNK_XMM (v1.5, file has TTF_REQ_XMM) the
 * ENTER mask's bit 7 (XMM) says the SSE registers follow the deltas:
 *                     u8 xmask: bit i = xmm_i is given, then per set bit
 *                     uvar bswap64(x ^ xprev[i]) (x = the register's low 8
 *                     bytes; byte-swapped so that doubles differing in
 *                     sign, exponent and top mantissa bits take few
 *                     bytes); xprev[i] = x for all eight; a register not
 *                     given is xprev[i] (all 0 at the chunk start)
 * and every EXIT, after svar rax, by
 *                     uvar bswap64(xmm0 ^ xret); xret = xmm0 (xret: xmm0
 *                     at the chunk's previous EXIT, 0 at its start)
 * uvar = LEB128 unsigned (at most 10 bytes); svar = zigzag then uvar;
 * str = uvar length + bytes (no NUL). A writer stores every byte after the
 * tag first and the tag last, so a record is all there or reads as 0x00.
 *
 * EXTENDED RECORD PAYLOADS ("t" = uvar tdelta, added to the running tsc)
 *   PROCESS      uvar pid, uvar ppid, uvar start_realtime_ns, uvar tsc_hz,
 *                str exe, uvar argc, str * argc, str parent_trace,
 *                [uvar chaos (TTF_CHAOS_*), uvar chaos_seed]  (appended in
 *                1.1 by libttcap in chaos mode; absent: no chaos)
 *   MODULE_LOAD  t, uvar base, uvar size, str build_id (raw bytes), str path
 *   MODULE_UNLOAD t, uvar base
 *   THREAD_START t, uvar tid, str name
 *   THREAD_NAME  t, str name
 *   THREAD_END   t
 *   CALLSITE     uvar id, u8 kind (TTF_SITE_*), svar level, uvar line,
 *                uvar nargs, u8 type * nargs (TTF_ARG_*), str fmt, str file,
 *                str func
 *   MESSAGE      t, uvar site, args (rest of payload, see TTF_ARG_*)
 *   SCOPE_ENTER  t, uvar site       (manual TT_SCOPE; function = site func)
 *   SCOPE_EXIT   t, uvar site
 *   CRASH        t, uvar signo, svar si_code, uvar fault_addr
 *   LOST         t, uvar events (0 = unknown), uvar bytes, u8 reason
 *   END          t, svar exit_status  (clean process exit)
 *   SYNC         t, uvar monotonic_ns, uvar realtime_ns
 *   PAUSE        t
 *   RESUME       t
 *   CUT          t, u8 reason   (this thread could write no further chunk)
 *   SYNC_OP      (0x20, optional) t, u8 op (TTF_SYNC_*), uvar object address,
 *                svar arg; 0x21..0x27 are reserved for more thread-sync records
 *   EXEC         (0x28, optional, v1.3) t, svar result (0 = the image is
 *                replaced here; else an exec that failed, its errno), str path
 *   VFORK        (0x29, optional, v1.3) t, uvar pid (a vfork child ran here)
 *   UNWIND       (0x2A, optional, v1.3) t, u8 how (TTF_UNWIND_*), uvar frames
 *                (the innermost open frames, left without EXIT, close here);
 *                0x2B..0x2F are reserved for more of this family
 *   STRINGS      (0x30, optional, v1.6; no t: it belongs to the ENTER that
 *                must follow, after any call-site prefix) u8 n, then n x
 *                {u8 what: register 0..5 | TTF_STRW_STD; u8 got: bytes
 *                (TTF_STRG_LEN) | TTF_STRG_END | TTF_STRG_FAULT; bytes}:
 *                the first bytes of the strings the next ENTER's argument
 *                registers point to (FORMAT.md 4.6)
 *
 * MESSAGE ARGS by type: I64 svar, U64 uvar, F64 8 bytes LE (IEEE 754),
 * PTR uvar, STR str (at most TTF_STR_MAX bytes kept).
 */
#ifndef TTF_WIRE_H
#define TTF_WIRE_H

#include <stdint.h>
#include <string.h>

#define TTF_MAGIC "\x89TTF\r\n\x1a\n"
#define TTF_MAGIC_LEN 8
#define TTF_VERSION_MAJOR_WIRE 1
#define TTF_VERSION_MINOR_WIRE 9   /* newest minor written; a file says
                                      the minor of the newest feature it
                                      uses (1.0 without values or sites) */
#define TTF_MIN_READER_WIRE 1
#define TTF_HEADER_SIZE 64
#define TTF_DATA_OFFSET 4096
#define TTF_ENDIAN_MARK 0x01020304u

/* header field offsets */
/* ---- the process table (FORMAT.md section 11) -------------------------------
 *
 * DIR/processes.ttp of a recorded tree: records appended by every process
 * of the tree, each with one write(2) to an O_APPEND descriptor:
 *   0   4   magic  "TTPR"
 *   4   2   kind   TTF_PT_START, _END, _ENV or _REAP (readers skip others)
 *   6   2   0
 *   8   4   payload length (<= TTF_PT_MAX)
 *   12  4   FNV-1a 32 of the payload
 *   16  ... payload (uvar, svar, str as in records)
 * START: pid, ppid, start_ns, parent_pid, parent_start_ns, how, traced,
 *        str exe, str build_id (hex), str cwd, str trace (name in DIR, ""
 *        when not traced), argc, str argv[argc], env (revision 2: the
 *        hash of its ENV rows, 0 none); readers skip fields they do not know
 * END:   pid, start_ns, end_ns, how, svar status, signal
 * ENV:   hash, total, first, n, str var[n] (variables first..first+n-1)
 * REAP:  pid, end_ns, signal, reaper pid, reaper start_ns */
#define TTF_PT_NAME "processes.ttp"
#define TTF_PT_MAGIC 0x52505454u /* "TTPR" */
#define TTF_PT_HDR 16
#define TTF_PT_MAX 32768
#define TTF_PT_ENVS "processes.envs"   /* writers' list of ENV hashes written */
enum { TTF_PT_START = 1, TTF_PT_END = 2, TTF_PT_ENV = 3, TTF_PT_REAP = 4 };
/* how a process began: the root (or unknown), a fork child, a new image
 * of the same process (exec), a new process that began with an exec (vfork
 * + exec, posix_spawn, system) */
enum { TTF_PT_ROOT = 0, TTF_PT_FORK = 1, TTF_PT_EXEC = 2, TTF_PT_SPAWN = 3 };
/* how it ended */
enum { TTF_PT_EXITED = 1, TTF_PT_EXECED = 2, TTF_PT_SIGNALED = 3 };

static inline uint32_t ttf_fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

#define TTF_H_VMAJOR 8
#define TTF_H_VMINOR 10
#define TTF_H_MINREAD 12
#define TTF_H_HSIZE 14
#define TTF_H_ENDIAN 16
#define TTF_H_REQ 20
#define TTF_H_OPT 24
#define TTF_H_CHUNK 28
#define TTF_H_DATAOFF 32
#define TTF_H_FLAGS 36
#define TTF_H_EXIT 40
#define TTF_H_TSCHZ 48
#define TTF_H_START 56
#define TTF_H_CUTEV 64           /* TTF_OPT_CUTINFO fields (see above) */
#define TTF_H_CUTTHR 72
#define TTF_H_CUTWHY 76
#define TTF_H_CUTTIME 80
#define TTF_H_ENDOFF 88           /* v1.4, with TTF_OPT_CUTINFO's 128-byte header:
                                   nonzero, the length the writer cut the file
                                   to at a clean end (inside its last slot) */
#define TTF_HEADER_SIZE_CUT 128  /* header_size written with TTF_OPT_CUTINFO */
#define TTF_CUT_TABLE 128        /* first cut table entry */
#define TTF_CUT_ENTRY 32         /* bytes per entry */
#define TTF_CUT_ENTRIES ((TTF_DATA_OFFSET - TTF_CUT_TABLE) / TTF_CUT_ENTRY)
#define TTF_CUTE_THREAD 0        /* u32 thread index + 1 (0 = unused) */
#define TTF_CUTE_TID 4           /* u32 */
#define TTF_CUTE_LOST 8          /* u64 */
#define TTF_CUTE_TIME 16         /* u64 realtime ns */
#define TTF_CUTE_FLAGS 24        /* u32 TTF_CUTF_* */
#define TTF_CUTE_REASON 28       /* u32 TTF_LOST_* */
#define TTF_CUTF_NOCHUNK 0x1u    /* cut before its first chunk */
#define TTF_CUTF_ENDED 0x2u      /* the thread ended */
#define TTF_CUTF_RESUMED 0x4u    /* it got a chunk again later */

#define TTF_REQ_EVENTS_V1 0x1u   /* the record encoding above */
#define TTF_REQ_VALUES 0x2u      /* v1.1: chunks may carry values */
#define TTF_REQ_SITES 0x4u       /* v1.2: ENTER records carry call sites */
#define TTF_REQ_SPARSE 0x8u      /* v1.4: chunks may be TTF_CHUNK_SPARSE (EXITs
                                    carry a time only after a TIMED prefix) */
#define TTF_REQ_XMM 0x10u        /* v1.5: values chunks may carry SSE registers */
#define TTF_REQ_LAZY 0x20u       /* v1.7: chunks may be TTF_CHUNK_LAZY (ENTERs
                                    too carry a time only after a TIMED prefix) */
#define TTF_REQ_VLAZY 0x40u      /* v1.8: lazy chunks may carry values (a
                                    TTF_CHUNK_LAZY chunk with TTF_CHUNK_VALUES) */
#define TTF_REQ_CHAIN 0x80u      /* v1.9: lazy chunks may be TTF_CHUNK_CHAIN (an
                                    ENTER after an untimed ENTER is untimed too) */
#define TTF_REQ_KNOWN 0xffu
#define TTF_OPT_RING 0x1u        /* chunks may be reused (flight recorder) */
#define TTF_OPT_NOCLOCK 0x2u     /* hot events carry no time (TTCAP_CLOCK=none) */
#define TTF_OPT_SYNC 0x4u        /* SYNC_OP records present (locks, conditions,
                                    thread create/join) */
#define TTF_OPT_CUTINFO 0x8u     /* the header's cut fields and cut table are
                                    kept (header_size 128); absent: unknown */
#define TTF_OPT_STRINGS 0x10u    /* v1.6: STRINGS records may precede ENTERs
                                    (the writer had a string table) */
#define TTF_FLAG_CLOSED 0x1u     /* a clean end was written */
#define TTF_FLAG_EXEC 0x2u       /* v1.3: with CLOSED, the process ended by
                                    exec (its EXEC record names the program) */
#define TTF_CHAOS_ON 0x1u        /* PROCESS chaos: schedule shaken at sync ops */
#define TTF_CHAOS_ENTRIES 0x2u   /* ... and at function entries */

#define TTF_CHUNK_MAGIC 0x4b435454u /* "TTCK" */
#define TTF_CHUNK_HDR 48
#define TTF_C_THREAD 4
#define TTF_C_SEQ 8
#define TTF_C_FLAGS 12
#define TTF_C_HSIZE 14
#define TTF_C_DEPTH 16
#define TTF_C_TSC 24
#define TTF_C_MONO 32
#define TTF_C_REAL 40
#define TTF_CHUNK_TIMED 0x1u
#define TTF_CHUNK_VALUES 0x2u    /* ENTER/EXIT carry registers (v1.1) */
#define TTF_CHUNK_SPARSE 0x4u    /* v1.4, with TIMED: EXITs carry a time only
                                    after a TIMED prefix */
#define TTF_CHUNK_XMM 0x8u       /* with VALUES: ENTER/EXIT carry SSE registers
                                    too (v1.5, file has TTF_REQ_XMM) */
#define TTF_CHUNK_LAZY 0x10u     /* v1.7, with SPARSE, file has TTF_REQ_LAZY
                                    (with VALUES only since v1.8, file has
                                    TTF_REQ_VLAZY too): an ENTER right after
                                    an untimed EXIT carries no time */
#define TTF_CHUNK_CHAIN 0x20u    /* v1.9, with LAZY, file has TTF_REQ_CHAIN: an
                                    ENTER right after an untimed ENTER carries
                                    no time either (the run goes on) */
#define TTF_CHUNK_MIN 4096u
#define TTF_CHUNK_MAX (64u << 20)

/* record tags */
#define TTF_T_END 0x00
#define TTF_T_ENTER_HIT 0x80
#define TTF_T_EXIT_HIT 0xC0
#define TTF_T_ENTER_MISS 0x40
#define TTF_T_EXIT_MISS 0x41
#define TTF_T_SITE_WAY 0x42      /* v1.2: 0x42..0x45, the ENTER after has way
                                    (tag - 0x42) of its site slot */
#define TTF_T_SITE_NEW 0x46      /* v1.2: svar (site - last_site), then the ENTER */
#define TTF_T_TIMED 0x47         /* v1.4, sparse chunks: the EXIT after carries
                                    its tdelta (v1.7, lazy chunks: or ENTER) */
#define TTF_T_SAMPLE 0x48        /* v1.4, sparse chunks: the same, for an EXIT
                                    the writer timed at random among those it
                                    would not (readers learn from these) */
#define TTF_SLOTS 64
#define TTF_SITE_WAYS 4          /* call sites remembered per site slot */
#define TTF_SITE_SLOTS 256       /* site slots (v1.2): more than function
                                    slots, as a function's sites take more
                                    room than its address */
#define TTF_SITE_SLOT(a) ((unsigned)((((a) >> 4) ^ ((a) >> 10)) & (TTF_SITE_SLOTS - 1)))
                                 /* TTF_SLOT's hash, 8 bits: SLOT = SSLOT & 63 */
#define TTF_SITE_PATHS 4096      /* path table entries (v1.2) */
/* The path table's entry of an ENTER of function a after an ENTER whose
 * call site was last (FORMAT.md 4.3: PATH). */
#define TTF_SITE_PATH(a, last) \
    ((unsigned)((((a) >> 4) ^ ((uint64_t)(last) * 9)) & (TTF_SITE_PATHS - 1)))
#define TTF_SLOT(a) ((unsigned)((((a) >> 4) ^ ((a) >> 10)) & (TTF_SLOTS - 1)))

enum {
    TTF_R_PROCESS = 0x01,
    TTF_R_MODULE_LOAD = 0x02,
    TTF_R_MODULE_UNLOAD = 0x03,
    TTF_R_THREAD_START = 0x04,
    TTF_R_THREAD_NAME = 0x05,
    TTF_R_THREAD_END = 0x06,
    TTF_R_CALLSITE = 0x07,
    TTF_R_MESSAGE = 0x08,
    TTF_R_SCOPE_ENTER = 0x09,
    TTF_R_SCOPE_EXIT = 0x0A,
    TTF_R_CRASH = 0x0B,
    TTF_R_LOST = 0x0C,
    TTF_R_END = 0x0D,
    TTF_R_SYNC = 0x0E,
    TTF_R_PAUSE = 0x0F,
    TTF_R_RESUME = 0x10,
    TTF_R_CUT = 0x11,
    TTF_R_REQUIRED_LAST = 0x1F,
    TTF_R_OPTIONAL_FIRST = 0x20,
    TTF_R_SYNC_OP = 0x20,       /* optional: t, u8 op, uvar object, svar arg */
    TTF_R_EXEC = 0x28,          /* optional (1.3): t, svar result (0: the image
                                   is replaced now; else the errno of an exec
                                   that failed: the trace goes on), str path */
    TTF_R_VFORK = 0x29,         /* optional (1.3): t, uvar pid: a vfork child
                                   ran here (its calls are not recorded) */
    TTF_R_UNWIND = 0x2A,        /* optional (1.3): t, u8 how (TTF_UNWIND_*),
                                   uvar frames: the innermost open frames,
                                   left without an EXIT */
    TTF_R_STRINGS = 0x30,       /* optional (1.6): u8 n, n x {u8 what, u8 got,
                                   bytes}: string prefixes of the next ENTER */
    TTF_R_LAST = 0x3F
};

/* STRINGS (v1.6, FORMAT.md 4.6): one entry per string argument register */
#define TTF_STRW_REG 0x07u       /* what: the register, 0..5 (rdi..r9) */
#define TTF_STRW_STD 0x08u       /* what: it held a std::string's address (the
                                    bytes are its characters) */
#define TTF_STRW_KNOWN 0x0fu     /* other bits of what: corrupt */
#define TTF_STRG_LEN 0x3fu       /* got: bytes that follow (at most 63) */
#define TTF_STRG_END 0x40u       /* got: the string ends after them (NUL) */
#define TTF_STRG_FAULT 0x80u     /* got: memory after them was unreadable (no
                                    bytes: the pointer itself) */
#define TTF_STR_PREFIX 32        /* bytes libttcap records at most per string */

/* values (v1.1): the integer argument registers, in mask bit order */
#define TTF_ARGREGS 6            /* rdi, rsi, rdx, rcx, r8, r9 */
#define TTF_MASK_STRIDE 0x40u    /* registers not given follow their stride */
#define TTF_MASK_BAD 0x80u       /* mask bits that must be 0 (without XMM) */
#define TTF_MASK_XMM 0x80u       /* v1.5, XMM chunks: SSE registers follow */
#define TTF_XMMREGS 8            /* xmm0..xmm7, their low 8 bytes */
#define TTF_ENTER_VALUES_MAX (1 + TTF_ARGREGS * TTF_UVAR_MAX)
#define TTF_ENTER_XMM_MAX (1 + TTF_XMMREGS * TTF_UVAR_MAX)
#define TTF_EXIT_VALUE_MAX TTF_UVAR_MAX
#define TTF_EXIT_XMM_MAX TTF_UVAR_MAX
/* SYNC_OP operations (u8; readers keep unknown values, ttf_event.code) */
enum {
    TTF_SYNC_LOCK = 1,          /* mutex acquired (pthread_mutex_lock returned 0) */
    TTF_SYNC_TRYLOCK = 2,       /* pthread_mutex_trylock; arg = its result (0 = got it) */
    TTF_SYNC_UNLOCK = 3,        /* mutex released */
    TTF_SYNC_WAIT = 4,          /* condition wait begins (arg = the mutex released) */
    TTF_SYNC_WOKE = 5,          /* condition wait returned (arg = result, mutex held) */
    TTF_SYNC_SIGNAL = 6,        /* pthread_cond_signal */
    TTF_SYNC_BROADCAST = 7,     /* pthread_cond_broadcast */
    TTF_SYNC_CREATE = 8,        /* pthread_create: object = the pthread_t,
                                   arg = the new thread's index */
    TTF_SYNC_JOIN = 9,          /* pthread_join returned: object = the pthread_t */
    TTF_SYNC_SLEEP = 10,        /* the thread waits for time or I/O (usleep, nanosleep,
                                   clock_nanosleep, poll, select, epoll_wait with a
                                   timeout that is not 0): object = the function's
                                   own address, arg = the time asked in ns, -1 none */
    TTF_SYNC_LOCKING = 11,      /* the thread starts to wait for a mutex another
                                   holds (a trylock failed first): object = the mutex */
    TTF_SYNC_JOINING = 12,      /* pthread_join begins: object = the pthread_t */
    TTF_SYNC_SEM_WAITING = 13,  /* sem_wait must wait (its try found the count 0):
                                   object = the semaphore */
    TTF_SYNC_SEM_TAKEN = 14,    /* sem_wait or sem_trywait took one: object = the
                                   semaphore */
    TTF_SYNC_SEM_POST = 15      /* sem_post: object = the semaphore */
};
/* UNWIND: how the frames were left (u8; readers keep unknown values) */
enum {
    TTF_UNWIND_FOUND = 0,       /* found later (the stack pointer was above them) */
    TTF_UNWIND_JMP = 1,         /* longjmp, _longjmp, siglongjmp */
    TTF_UNWIND_EH = 2           /* a C++ exception (or another unwinder user) */
};

#define TTF_STR_MAX 256   /* longest message string argument kept */

/* LOST / CUT reason byte (readers accept unknown values) */
#define TTF_LOST_UNSPEC 0 /* not said (libttcap: events from a signal
                             handler while the thread was mid-record) */
#define TTF_LOST_FULL 1   /* no buffer or chunk space */
#define TTF_LOST_IO 2     /* a write to the file failed */
#define TTF_LOST_LIMIT 3  /* the file size limit (RLIMIT_FSIZE, EFBIG) */

/* Encoders: write at p, return the byte after. Caller guarantees room
 * (TTF_UVAR_MAX per uvar). */
#define TTF_UVAR_MAX 10

static inline uint8_t *ttf_put_uvar(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t ttf_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t ttf_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint8_t *ttf_put_svar(uint8_t *p, int64_t v)
{
    return ttf_put_uvar(p, ttf_zigzag(v));
}

static inline uint8_t *ttf_put_str(uint8_t *p, const char *s, size_t n)
{
    p = ttf_put_uvar(p, n);
    memcpy(p, s, n);
    return p + n;
}

static inline void ttf_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void ttf_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void ttf_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t ttf_get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Bits set in a 6-bit register mask. */
static const uint8_t ttf_regs_set[1u << TTF_ARGREGS] = {
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
    2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
};

/* The mask of an ENTER's values (below), with d[i] = regs[i] - prev[i].
 * Of the two predictions for a register not given (unchanged since the
 * chunk's previous ENTER, or moved by the same stride as then: a loop
 * counter, a pointer walking an array), the one that leaves fewer
 * registers to give is used; unchanged on a tie. Unrolled and branch-free:
 * values mode runs this on every call. */
static inline unsigned ttf_values_mask(const uint64_t regs[TTF_ARGREGS],
                                       const uint64_t prev[TTF_ARGREGS],
                                       const uint64_t stride[TTF_ARGREGS],
                                       uint64_t d[TTF_ARGREGS])
{
    unsigned same = 0, strided = 0;
#pragma GCC unroll 6
    for (int i = 0; i < TTF_ARGREGS; i++) {
        d[i] = regs[i] - prev[i];
        same |= (unsigned)(d[i] != 0) << i;
        strided |= (unsigned)(d[i] != stride[i]) << i;
    }
    unsigned pick = -(unsigned)(ttf_regs_set[strided] < ttf_regs_set[same]);
    return (pick & (strided | TTF_MASK_STRIDE)) | (~pick & same);
}

/* The mask byte, then the zigzag deltas of the registers it gives, in
 * increasing order: a loop over the set bits only (most calls give none
 * or one or two). */
static inline uint8_t *ttf_put_values_deltas(uint8_t *p, unsigned m,
                                             const uint64_t d[TTF_ARGREGS])
{
    *p++ = (uint8_t)m;
    for (unsigned g = m & ((1u << TTF_ARGREGS) - 1); g; g &= g - 1)
        p = ttf_put_svar(p, (int64_t)d[__builtin_ctz(g)]);
    return p;
}

/* The values after an ENTER in a TTF_CHUNK_VALUES chunk: mask, then the
 * deltas of the registers given (ttf_values_mask). Writes at most
 * TTF_ENTER_VALUES_MAX bytes; once the record is committed the caller
 * calls ttf_values_advance. */
static inline uint8_t *ttf_put_enter_values(uint8_t *p,
                                            const uint64_t regs[TTF_ARGREGS],
                                            const uint64_t prev[TTF_ARGREGS],
                                            const uint64_t stride[TTF_ARGREGS])
{
    uint64_t d[TTF_ARGREGS];
    unsigned m = ttf_values_mask(regs, prev, stride, d);
    return ttf_put_values_deltas(p, m, d);
}

/* After an ENTER with values regs: the state the next one is coded on. */
static inline void ttf_values_advance(const uint64_t regs[TTF_ARGREGS],
                                      uint64_t prev[TTF_ARGREGS],
                                      uint64_t stride[TTF_ARGREGS])
{
#pragma GCC unroll 6
    for (int i = 0; i < TTF_ARGREGS; i++) {
        stride[i] = regs[i] - prev[i];
        prev[i] = regs[i];
    }
}

/* A bit per register, 1 where x is 0: m = m * 2 + (x == 0). On x86-64 a
 * compare and an add with carry (compilers make set/zero-extend/shift/or
 * of the portable form, twice the instructions, on every call). */
static inline unsigned ttf_zero_bit(unsigned m, uint64_t x)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("cmpq $1, %1\n\tadcl %0, %0" : "+r"(m) : "r"(x) : "cc");
    return m;
#else
    return m * 2 + (x == 0);
#endif
}

/* Both at once, for a writer that always has room (libttcap): writes the
 * values and moves prev/stride on, computing each delta once. The same
 * mask as ttf_values_mask (its bits built as "predicted right" from
 * register 5 down, in two instructions each), the deltas read back from
 * the new stride (it is the delta). */
static inline uint8_t *ttf_put_enter_values_step(uint8_t *p,
                                                 const uint64_t regs[TTF_ARGREGS],
                                                 uint64_t prev[TTF_ARGREGS],
                                                 uint64_t stride[TTF_ARGREGS])
{
    unsigned same = 0, strided = 0;
#pragma GCC unroll 6
    for (int i = TTF_ARGREGS - 1; i >= 0; i--) {
        uint64_t d = regs[i] - prev[i];
        strided = ttf_zero_bit(strided, d - stride[i]);
        same = ttf_zero_bit(same, d);
        prev[i] = regs[i];
        stride[i] = d;
    }
    unsigned all = (1u << TTF_ARGREGS) - 1;
    unsigned m = ttf_regs_set[strided] > ttf_regs_set[same] ? (strided ^ all) | TTF_MASK_STRIDE
                                                            : same ^ all;
    return ttf_put_values_deltas(p, m, stride);
}

/* The SSE registers after an ENTER's integer values in a TTF_CHUNK_XMM
 * chunk (FORMAT.md 4.1): mask is where the ENTER's mask byte was written
 * (ttf_put_values_deltas' first byte), its XMM bit set when a register
 * changed; xprev moves on. Writes at most TTF_ENTER_XMM_MAX bytes. */
static inline uint8_t *ttf_put_enter_xmm_step(uint8_t *p, uint8_t *mask,
                                              const uint64_t x[TTF_XMMREGS],
                                              uint64_t xprev[TTF_XMMREGS])
{
    uint64_t d[TTF_XMMREGS], any = 0;
#pragma GCC unroll 8
    for (int i = 0; i < TTF_XMMREGS; i++)
        any |= x[i] ^ xprev[i];
    if (__builtin_expect(!any, 1))
        return p;               /* the usual case: nothing to write or keep */
    unsigned m = 0;             /* (the XORs again: kept, they cost stores) */
    for (int i = 0; i < TTF_XMMREGS; i++) {
        d[i] = x[i] ^ xprev[i];
        xprev[i] = x[i];
        m |= (unsigned)(d[i] != 0) << i;
    }
    *mask |= TTF_MASK_XMM;
    *p++ = (uint8_t)m;
    for (int i = 0; i < TTF_XMMREGS; i++)
        if (m & (1u << i))
            p = ttf_put_uvar(p, __builtin_bswap64(d[i]));
    return p;
}

/* xmm0 after an EXIT's rax in a TTF_CHUNK_XMM chunk; xret moves on. */
static inline uint8_t *ttf_put_exit_xmm(uint8_t *p, uint64_t xmm0, uint64_t *xret)
{
    uint64_t d = xmm0 ^ *xret;
    *xret = xmm0;
    return ttf_put_uvar(p, __builtin_bswap64(d));
}

/* The value after an EXIT in a TTF_CHUNK_VALUES chunk: rax, absolute. */
static inline uint8_t *ttf_put_exit_value(uint8_t *p, uint64_t rax)
{
    return ttf_put_svar(p, (int64_t)rax);
}

/* Call sites (v1.2): the state both sides keep per chunk, all 0 at its
 * start (FORMAT.md 4.3). The site of a call is mostly decided by where the
 * program just was: path[TTF_SITE_PATH(fn, last)] is the site the last
 * ENTER of a function with that entry came from, after an ENTER whose site
 * was last (the previous ENTER's site). It is the predicted site; when it
 * is still 0, way 0 of the function's site slot is. ways[slot][0..3] are
 * the slot's four most recent distinct sites that were not predicted,
 * newest first: a call the path does not foresee (a fifth place, a loop's
 * first round) costs a byte when it comes from one of them. last is the
 * call site of the chunk's previous ENTER. */
struct ttf_sites {
    uint64_t path[TTF_SITE_PATHS];
    uint64_t ways[TTF_SITE_SLOTS][TTF_SITE_WAYS];
    uint64_t last;              /* site of the previous ENTER */
};

/* The site predicted for an ENTER of fn whose path entry is *p. */
static inline uint64_t ttf_site_pred(const struct ttf_sites *s, uint64_t fn,
                                     uint64_t p)
{
    return p ? p : s->ways[TTF_SITE_SLOT(fn)][0];
}

/* The predicted site of an ENTER of fn, the state moved on as if it was
 * its site (ttf_site_advance for that case: the ways stay). The reader's
 * fast path. */
static inline uint64_t ttf_site_take(struct ttf_sites *s, uint64_t fn)
{
    uint64_t *p = &s->path[TTF_SITE_PATH(fn, s->last)];
    uint64_t site = ttf_site_pred(s, fn, *p);
    *p = site;
    s->last = site;
    return site;
}

/* 1 if site is the predicted site of an ENTER of fn from its path entry,
 * with the state moved on (as ttf_site_take); 0 (nothing changed) if not,
 * or if the prediction comes from the slot's way 0: the caller then goes
 * the slow way (ttf_put_site_prefix, ttf_site_advance), which finds no
 * prefix needed in that case. The writers' fast path. */
static inline int ttf_site_try(struct ttf_sites *s, uint64_t fn, uint64_t site)
{
    uint64_t p = s->path[TTF_SITE_PATH(fn, s->last)];
    if (__builtin_expect(p != site || !p, 0))
        return 0;
    s->last = site;
    return 1;
}

/* The prefix an ENTER of fn with call site site needs, at p: nothing
 * (returns p) when it is the predicted site, SITE_WAY + i when it is way i
 * of the slot (the first such), else SITE_NEW and the delta against the
 * previous ENTER's site. *tag is set to the prefix's tag when there is
 * one. Writes at most 1 + TTF_UVAR_MAX bytes; state unchanged
 * (ttf_site_advance). */
static inline uint8_t *ttf_put_site_prefix(uint8_t *p, const struct ttf_sites *s,
                                           uint64_t fn, uint64_t site,
                                           uint8_t *tag)
{
    const uint64_t *w = s->ways[TTF_SITE_SLOT(fn)];
    if (site == ttf_site_pred(s, fn, s->path[TTF_SITE_PATH(fn, s->last)]))
        return p;
    for (unsigned i = 0; i < TTF_SITE_WAYS; i++) {
        if (w[i] == site) {
            *tag = (uint8_t)(TTF_T_SITE_WAY + i);
            return p + 1;
        }
    }
    *tag = TTF_T_SITE_NEW;
    return ttf_put_svar(p + 1, (int64_t)(site - s->last));
}

/* After an ENTER of fn with call site site: the state the next one is
 * coded on. A site that was not the predicted one moves to the front of
 * its slot's ways (from where it was, else the oldest drops out); the
 * path entry takes the site in any case. (The ways move one by one, in a
 * loop no compiler turns into a memmove call: libttcap's values mode runs
 * this where no libc function may touch the vector registers.) */
static inline void ttf_site_advance(struct ttf_sites *s, uint64_t fn,
                                    uint64_t site)
{
    uint64_t *p = &s->path[TTF_SITE_PATH(fn, s->last)];
    uint64_t *w = s->ways[TTF_SITE_SLOT(fn)];
    if (site != ttf_site_pred(s, fn, *p)) {
        uint64_t carry = site;
        for (unsigned i = 0; i < TTF_SITE_WAYS; i++) {
            uint64_t was = w[i];
            w[i] = carry;
            if (was == site)
                break;
            carry = was;
        }
    }
    *p = site;
    s->last = site;
}

/* Fill a file header's fields, all but the magic (a writer stores it last,
 * or first when the header is written in one piece) and flags/exit status.
 * required is TTF_REQ_EVENTS_V1, plus TTF_REQ_VALUES for a trace whose
 * chunks carry values (which makes it version 1.1), TTF_REQ_SITES for
 * one whose ENTERs carry call sites (1.2), TTF_REQ_SPARSE for one with
 * sparse chunks (1.4), TTF_REQ_LAZY for one with lazy chunks (1.7),
 * TTF_REQ_VLAZY with lazy values chunks (1.8) and TTF_REQ_CHAIN with
 * chain chunks (1.9); others stay 1.0. */
static inline void ttf_put_header_req(uint8_t *h, uint32_t required,
                                      uint32_t opt_features,
                                      uint32_t chunk_size, uint64_t tsc_hz,
                                      uint64_t start_realtime_ns)
{
    ttf_put_u16(h + TTF_H_VMAJOR, TTF_VERSION_MAJOR_WIRE);
    ttf_put_u16(h + TTF_H_VMINOR, (required & TTF_REQ_CHAIN) ? 9
                                  : (required & TTF_REQ_VLAZY) ? 8
                                  : (required & TTF_REQ_LAZY) ? 7
                                  : (opt_features & TTF_OPT_STRINGS) ? 6
                                  : (required & TTF_REQ_XMM) ? 5
                                  : (required & TTF_REQ_SPARSE) ? 4
                                  : (required & TTF_REQ_SITES) ? 2
                                  : (required & TTF_REQ_VALUES) ? 1 : 0);
    ttf_put_u16(h + TTF_H_MINREAD, TTF_MIN_READER_WIRE);
    ttf_put_u16(h + TTF_H_HSIZE, TTF_HEADER_SIZE);
    ttf_put_u32(h + TTF_H_ENDIAN, TTF_ENDIAN_MARK);
    ttf_put_u32(h + TTF_H_REQ, required);
    ttf_put_u32(h + TTF_H_OPT, opt_features);
    ttf_put_u32(h + TTF_H_CHUNK, chunk_size);
    ttf_put_u32(h + TTF_H_DATAOFF, TTF_DATA_OFFSET);
    ttf_put_u64(h + TTF_H_TSCHZ, tsc_hz);
    ttf_put_u64(h + TTF_H_START, start_realtime_ns);
}

/* The same for a trace without values (format 1.0 bytes). */
static inline void ttf_put_header(uint8_t *h, uint32_t opt_features,
                                  uint32_t chunk_size, uint64_t tsc_hz,
                                  uint64_t start_realtime_ns)
{
    ttf_put_header_req(h, TTF_REQ_EVENTS_V1, opt_features, chunk_size, tsc_hz,
                       start_realtime_ns);
}

#endif
