/*
 * ttfmt.h - read and write tt trace files (format v1.1, see FORMAT.md), and
 * resolve their function addresses to names.
 *
 * The one public header of libttfmt. Handles are opaque; every call that can
 * fail returns 0 or a negative TT_E* code (ttf_strerror names it). Strings
 * and arrays handed out by a trace stay valid until that trace is closed.
 */
#ifndef TTFMT_H
#define TTFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2.0.0: the profile, the regex filters and the Chrome export left libttfmt
 * (format/ is bytes <-> events and symbols only). ttf_profile_* is now
 * ttd_prof_* and ttf_regex_* is ttd_regex_* in ttdiff.h (libttdiff.a);
 * ttf_profile_write_text is ttr_prof_text and ttf_chrome_write is
 * ttr_chrome_write in ttreport.h (libttreport.a). See README, Architecture.
 * Added ttf_format and TTF_HEADER_CLOSED.
 * 2.1.0: values (trace format 1.1): ttf_event has_values, changed,
 * argregs, retval; the writer's values option; ttf_sym_signature and
 * ttf_value_*. The same release reads and writes the optional SYNC_OP
 * records (TTF_EV_SYNC_OP, ttf_event sync_arg, ttf_sync_op_name,
 * TTF_HEADER_SYNC), which need no version of their own.
 * 2.2.0: ttf_utf8_len; ttf_value_errcode, and ttf_value_format gives
 * such values their signed form too ("18446744073709551596 (-20)").
 * 2.3.0: cut traces: ttf_header cut_*, ttf_summary cut_threads, cut_reason,
 * cut_events, ttf_thread cut, ttf_cut_count/ttf_get_cut, ttf_cut_text,
 * ttf_cut_reason_name, ttf_write_cut, TTF_CUT_*; ttf_sym_status.
 * 2.4.0: machine code of a module's functions and what an address in it
 * names (ttf_sym_code, ttf_sym_code_ref): two builds compared.
 * 2.5.0: call sites (trace format 1.2): ttf_event call_site,
 * ttf_summary sites, ttf_writer_opts sites, ttf_write_enter_site and
 * ttf_write_enter_values_site; ttf_sym_site and ttf_site_where; inline
 * chains from DWARF (ttf_sym_inline, ttf_inline_frame): the functions
 * inlined at a call site, each with its line. Enums by name: ttf_enumerator,
 * ttf_vtype enums and nenums (read from DWARF), ttf_value_format prints
 * "RED (1)" and "A|B (3)". Chaos mode in the PROCESS record:
 * ttf_process chaos and chaos_seed, TTF_PROC_CHAOS*, ttf_writer_opts
 * chaos and chaos_seed. ttf_process exit_thread, ttf_writer_close_in.
 * The functions inlined into a function (ttf_sym_inlined_in, ttf_inlined,
 * TTF_INLINED_MAX): what ran inside it without an ENTER of its own.
 * 2.6.0: truncated files: a file that ends inside its header page is
 * TT_ETRUNC; one that ends inside a chunk has ttf_summary truncated_at,
 * its threads whose streams may go on past the end have ttf_thread cut,
 * and ttf_cut_text says so.
 * 2.7.0: how a process and its frames ended (trace format 1.3, optional
 * records): TTF_EV_EXEC, TTF_EV_VFORK, TTF_EV_UNWIND, ttf_event unwound,
 * TTF_UNWIND_*, ttf_unwind_name, ttf_process exec_path, TTF_HEADER_EXEC.
 * 2.8.0: float and double values (trace format 1.5, TTF_REQ_XMM):
 * ttf_event argregs holds xmm0..7 after the integer registers
 * (TTF_XMM_SLOT, TTF_VALUE_SLOTS), has_xmm, xchanged, retxmm;
 * ttf_param reg may name an SSE slot; ttf_signature ret_xmm,
 * ttf_value_ret; TTF_VC_FLOAT values compared and printed as numbers
 * (complex types are TTF_VC_OTHER); ttf_writer_opts xmm,
 * ttf_write_enter_xmm, ttf_write_exit_xmm. ttf_system_file (was two
 * copies, in libttdiff and libttreport).
 * 2.9.0: the writer makes sparse-clock traces (format 1.4):
 * ttf_writer_opts sparse, ttf_write_exit_sparse, TTF_EXIT_*.
 * 2.10.0: small structs and unions passed in registers are shown by their
 * recorded eightbytes: ttf_param reg2 (the second eightbyte's slot; reg
 * is the first's, integer or SSE), ttf_vtype fields and nfields (the
 * scalar fields of an aggregate of at most 16 bytes, ttf_field),
 * ttf_param byref and mem, ttf_param_format ("{x=1.5, y=2}"); a struct
 * result in rax and xmm0: ttf_signature ret_eb, TTF_RET_*, ttf_ret_format.
 * Values mode's per-function registers: ttf_value_table, ttf_vt_entry.
 * 2.11.0: process tables of revision 2 (FORMAT.md section 11): ttf_proc
 * env and nenv (the recorded environment), fork_nth, reaped (an end
 * from the parent's REAP row); ttf_ptable_reaped; TTF_PTABLE_ENVS.
 * 2.12.0: ttf_iter_clone (a pass resumes where another stopped).
 * 2.13.0: ttf_iter_skip_values (events without values, faster on values
 * traces for passes that do not read them).
 * 2.14.0: ttf_source_hash (a function's source text fingerprinted: did
 * its source change between two builds, or only its machine code).
 * 2.15.0: string arguments by content (format 1.6, STRINGS records):
 * ttf_event strs and strs_len, ttf_string, ttf_event_string,
 * ttf_string_format, ttf_string_same, ttf_write_strings,
 * TTF_HEADER_STRINGS, TTF_STRING_PREFIX.
 * 2.15.1: untimed EXITs placed by ratios kept per band of interval width
 * (FORMAT.md 4.5); no API change.
 * 2.16.0: ttf_source_passes_on (does a function's source only return
 * another function's answer: a wrapper around an inlined decision).
 * 2.16.1: ttf_value_table leaves out pointers to a non-const std::string
 * (`this` of basic_string's constructors: storage not yet a string); no
 * API change.
 * 2.17.0: ttf_write_unwind (a writer of hand-made traces could not write
 * the UNWIND record libttcap writes at a longjmp).
 * 2.18.0: ttf_value_table lists a plain char * of a function whose machine
 * code writes no memory but its own stack frame (an input, never an output
 * buffer); TTF_RET_UNREC in ttf_signature ret_eb (a small struct result
 * in registers the trace does not record; 0 before), ttf_ret_format says
 * so, and "(in memory)" for a result larger than 16 bytes.
 * 2.19.0: ttf_sym_code_reads (does a function's machine code read memory
 * other threads can write: the check of a check-then-act, issue 33).
 * 2.20.0: TTF_SOP_LOCKING and TTF_SOP_JOINING (the start of a blocking
 * lock and of a join: a thread that never returns from them shows where
 * it hung, issue 33), TTF_SOP_SEM_WAITING, TTF_SOP_SEM_TAKEN and
 * TTF_SOP_SEM_POST (semaphores); ttf_sync_op_name names them.
 * 2.21.0: ttf_sym_code_globals (the writable globals a function's machine
 * code reads and writes directly: a flag one thread sets and another
 * polls, issue 33).
 * 2.22.0: ttf_sym_code_fields (the struct fields a function's machine code
 * reads and writes through its pointer parameters, typed from DWARF:
 * shared state in a struct reached through a pointer, issue 33).
 * 2.23.0: ttf_sym_code_cmpret (does a function return a C library
 * comparison's result unchanged: memcmp's magnitude differs between runs,
 * only its sign is specified).
 * 2.24.0: ttf_monotonic_ns (an event time as CLOCK_MONOTONIC, from the
 * chunk headers' clock-sync points: a deadline a program computed from
 * that clock, told from an input value, issue 33).
 * 2.25.0: ttf_thread.digest (a hash of a thread's calls in order, taken
 * by the open's scan: two runs' threads that did the same calls have the
 * same digest, issue 38).
 * 2.26.0: lazy-clock traces (format 1.7, FORMAT.md 4.7): ttf_event
 * early_ns and ttf_event_early_ns (an untimed ENTER or EXIT lies between
 * early_ns and late_ns); ttf_writer_opts lazy.
 * 2.27.0: ttf_iter_skip_times (untimed events not placed: faster on
 * sparse and lazy traces for passes that read no times, issue 38).
 * 2.28.0: lazy values chunks (format 1.8, TTF_REQ_VLAZY, FORMAT.md 4.7);
 * ttf_writer_opts lazy with values; ttf_write_exit_value_sparse.
 * 2.29.0: lazy chain chunks (format 1.9, TTF_REQ_CHAIN, FORMAT.md 4.7: an
 * ENTER right after an untimed ENTER is untimed too); ttf_writer_opts
 * chain.
 * 2.30.0: ttf_iter_times (the exact time of the event given last, after
 * ttf_iter_skip_times: its chunk read again).
 * 2.31.0: ttf_iter_times_at (an earlier event's exact times by its
 * offset); ttf_source_hash_skip (a source fingerprint with line ranges
 * left out); a lambda's operator() declared at its class's line.
 * 2.32.0: ttf_iter_values, ttf_iter_values_at (values back after
 * ttf_iter_skip_values, an earlier event's by its offset).
 * 2.33.0: ttf_tick_ns (a counter value's event time). */
#define TTF_VERSION_MAJOR 2
#define TTF_VERSION_MINOR 33
#define TTF_VERSION_PATCH 0
#define TTF_VERSION_NUMBER \
    (TTF_VERSION_MAJOR * 10000 + TTF_VERSION_MINOR * 100 + TTF_VERSION_PATCH)

/* The library's own version at run time (TTF_VERSION_NUMBER it was built with). */
int ttf_version(void);

/* The trace format this library writes (FORMAT.md). */
typedef struct ttf_format_info {
    unsigned major, minor;  /* format version written in new headers */
    unsigned min_reader;    /* oldest reader major version that reads them */
    uint32_t endian_mark;   /* the header's endian field as written */
} ttf_format_info;

/* A static description of the format (never NULL). */
const ttf_format_info *ttf_format(void);

/* ---- errors ------------------------------------------------------------ */

#define TT_OK 0
#define TT_EIO (-1)        /* a system call failed (open, read, mmap, write) */
#define TT_ETRUNC (-2)     /* the bytes end before a record or header does */
#define TT_ECORRUPT (-3)   /* the bytes are there but make no sense */
#define TT_EVERSION (-4)   /* written by a newer, incompatible format version */
#define TT_EFEATURE (-5)   /* needs a required feature this reader lacks */
#define TT_ENOMEM (-6)     /* an allocation failed */
#define TT_EINVAL (-7)     /* a bad argument (NULL, unknown thread, bad flag) */
#define TT_ENOTFOUND (-8)  /* no such thing (symbol, file, thread) */

/* A static, never NULL, description of a TT_E* code. */
const char *ttf_strerror(int err);

/* The name of a SYNC_OP operation (TTF_SOP_*): "lock",
 * "trylock", "unlock", "cond-wait", "cond-woke", "cond-signal",
 * "cond-broadcast", "thread-create", "thread-join"; "op" if unknown. */
const char *ttf_sync_op_name(int op);

/* Where and why a call failed. Filled by calls that take one (may be NULL).
 * msg names the file and the byte offset, e.g.
 * "bad.trc: offset 4160: truncated record (MESSAGE needs 12 bytes, 3 left)". */
typedef struct ttf_error {
    int code;           /* the TT_E* code, 0 if none */
    uint64_t offset;    /* byte offset in the file where it went wrong */
    char msg[256];      /* one line, no trailing newline */
} ttf_error;

/* ---- values shared with the capture side ------------------------------- */

enum ttf_event_kind {
    TTF_EV_ENTER = 1,   /* function entered (addr; or site for TT_SCOPE) */
    TTF_EV_EXIT,        /* function returned */
    TTF_EV_MESSAGE,     /* TT_LOG / TT_VALUE / TT_RETURN (site + args) */
    TTF_EV_MARK,        /* TT_MARK (site; label = site fmt) */
    TTF_EV_CRASH,       /* fatal signal (signo, code, fault_addr) */
    TTF_EV_LOST,        /* data lost here (lost_events, lost_bytes) */
    TTF_EV_THREAD_START,
    TTF_EV_THREAD_END,
    TTF_EV_THREAD_NAME, /* renamed; new name in text */
    TTF_EV_MODULE_LOAD, /* addr = base; module index in site */
    TTF_EV_MODULE_UNLOAD, /* addr = base; the module it unloads: index in
                           site, path in text (UINT32_MAX and "" if no
                           loaded module has that base) */
    TTF_EV_PAUSE,       /* ttcap_pause() */
    TTF_EV_RESUME,      /* ttcap_resume() */
    TTF_EV_END,         /* clean process exit (exit status in signo) */
    TTF_EV_CUT,         /* the thread's stream was cut (disk full, I/O) */
    TTF_EV_SYNC_OP,     /* lock, condition or thread operation: code = op
                           (TTF_SOP_*), addr = the object,
                           sync_arg = its argument (optional record) */
    TTF_EV_EXEC,        /* exec (format 1.3): text = the program's path;
                           code = 0: the image is replaced here (the
                           thread's last event), else the errno of an exec
                           that failed (the trace goes on) */
    TTF_EV_VFORK,       /* a vfork child ran here until it exec'd or
                           exited (format 1.3): code = its pid; its calls
                           are not in this trace */
    TTF_EV_UNWIND       /* frames left without an EXIT (format 1.3):
                           unwound = how many of the innermost open frames
                           are closed here, code = how (TTF_UNWIND_*); the
                           depth after it is depth - unwound */
};

/* How frames were left (ttf_event.code of TTF_EV_UNWIND; FORMAT.md 4.4). */
enum ttf_unwind_how {
    TTF_UNWIND_OTHER = 0,       /* found later: the stack pointer was above them */
    TTF_UNWIND_LONGJMP = 1,     /* longjmp, _longjmp, siglongjmp */
    TTF_UNWIND_EXCEPTION = 2    /* a C++ exception (or another unwinder user) */
};

/* "longjmp", "exception" or "unwind" (any other value). */
const char *ttf_unwind_name(int how);

enum ttf_site_kind {
    TTF_SITE_LOG = 1,   /* TT_LOG(level, fmt, ...) */
    TTF_SITE_VALUE,     /* TT_VALUE(name, expr): fmt is the name */
    TTF_SITE_RETURN,    /* TT_RETURN(expr) */
    TTF_SITE_MARK,      /* TT_MARK(label): fmt is the label */
    TTF_SITE_SCOPE      /* TT_SCOPE(): func names the scope */
};

enum ttf_arg_type {
    TTF_ARG_I64 = 1,    /* signed integers of any width */
    TTF_ARG_U64,        /* unsigned integers, bool */
    TTF_ARG_F64,        /* float, double */
    TTF_ARG_PTR,        /* any other pointer */
    TTF_ARG_STR         /* char * (copied, at most 256 bytes) */
};

/* ---- reading ----------------------------------------------------------- */

typedef struct ttf_trace ttf_trace;

/* ttf_header.flags bit: the writer closed the file (exit status is set). */
#define TTF_HEADER_CLOSED 1u
/* ttf_header.flags bit (format 1.3): the process ended by exec (with
 * TTF_HEADER_CLOSED; its path in ttf_process exec_path). */
#define TTF_HEADER_EXEC 2u
/* Optional feature bit: chunks may have been reused (ring mode, flight
 * recorder): a thread's seq gaps are its oldest chunks, overwritten. */
#define TTF_HEADER_RING 0x1u
/* Optional feature bit: SYNC_OP events may be present (TTF_EV_SYNC_OP). */
#define TTF_HEADER_SYNC 0x4u
/* Optional feature bit (format 1.6): ENTERs may carry their string
 * arguments' first bytes (ttf_event_string). */
#define TTF_HEADER_STRINGS 0x10u

/* SYNC_OP operations (ttf_event.code of TTF_EV_SYNC_OP; FORMAT.md 4.2). */
enum ttf_sync_op {
    TTF_SOP_LOCK = 1,   /* mutex acquired */
    TTF_SOP_TRYLOCK,    /* trylock; sync_arg = its result (0: acquired) */
    TTF_SOP_UNLOCK,     /* mutex released */
    TTF_SOP_WAIT,       /* condition wait begins; sync_arg = the mutex */
    TTF_SOP_WOKE,       /* condition wait returned; sync_arg = its result */
    TTF_SOP_SIGNAL,     /* pthread_cond_signal */
    TTF_SOP_BROADCAST,  /* pthread_cond_broadcast */
    TTF_SOP_CREATE,     /* pthread_create; object = pthread_t, sync_arg = index */
    TTF_SOP_JOIN,       /* pthread_join returned; object = pthread_t */
    TTF_SOP_SLEEP,      /* a sleep or an I/O wait begins (usleep, nanosleep,
                           poll...); sync_arg = the time asked in ns, -1 none */
    TTF_SOP_LOCKING,    /* the thread starts to wait for a mutex another
                           thread holds (format 2.20: libttcap 1.2) */
    TTF_SOP_JOINING,    /* pthread_join begins; object = pthread_t (2.20) */
    TTF_SOP_SEM_WAITING, /* sem_wait must wait: the count was 0 (2.20) */
    TTF_SOP_SEM_TAKEN,  /* sem_wait or sem_trywait took one (2.20) */
    TTF_SOP_SEM_POST    /* sem_post (2.20) */
};

/* Fixed header fields, as stored. */
typedef struct ttf_header {
    uint16_t version_major, version_minor, min_reader_major, header_size;
    uint32_t required_features, optional_features;
    uint32_t chunk_size, data_offset, flags;
    int32_t exit_status;        /* valid when flags & TTF_HEADER_CLOSED */
    uint64_t tsc_hz;            /* counter ticks per second, 0 if unknown */
    uint64_t start_realtime_ns; /* CLOCK_REALTIME at trace start */
    /* cut counters (a writer that keeps them: TTF_HEADER_CUTINFO; else 0) */
    uint64_t cut_events;        /* events lost to cuts, not in LOST records */
    uint32_t cut_threads;       /* threads ever cut */
    uint32_t cut_reason;        /* the first cut's TTF_CUT_*, 0 = none */
    uint64_t cut_realtime_ns;   /* CLOCK_REALTIME of the first cut */
    uint64_t end_offset;        /* v1.4: nonzero, the length the writer cut the
                                   file to at a clean end (0 = whole slots) */
} ttf_header;

/* Optional feature bit: the header's cut counters and table are kept. */
#define TTF_HEADER_CUTINFO 0x8u

/* Why a stream was cut or data lost (ttf_event.code of CUT and LOST,
 * ttf_header.cut_reason, ttf_cut.reason): the format's reason byte. */
#define TTF_CUT_UNSPEC 0        /* not said */
#define TTF_CUT_FULL 1          /* no space: disk full */
#define TTF_CUT_IO 2            /* a write failed */
#define TTF_CUT_LIMIT 3         /* the file size limit (RLIMIT_FSIZE) */

/* ttf_cut.flags */
#define TTF_CUTFL_NOCHUNK 0x1u  /* cut before its first chunk: no records of
                                   its own unless RESUMED */
#define TTF_CUTFL_ENDED 0x2u    /* the thread ended */
#define TTF_CUTFL_RESUMED 0x4u  /* it got a chunk again later */

/* A thread the writer cut off, from the header's cut table. */
typedef struct ttf_cut {
    uint32_t thread;            /* thread index */
    int64_t tid;                /* OS thread id */
    uint64_t lost;              /* its events lost to the cut and not in a
                                   LOST record (exact) */
    uint64_t realtime_ns;       /* CLOCK_REALTIME of its first cut */
    uint32_t flags;             /* TTF_CUTFL_* */
    int reason;                 /* TTF_CUT_* */
} ttf_cut;

/* What reading the file found beyond the header. */
typedef struct ttf_summary {
    int closed;                 /* 1: clean end marker present */
    int crashed;                /* 1: a CRASH event is present */
    uint64_t chunks_total;      /* chunk slots in the file */
    uint64_t chunks_used;       /* chunks holding data */
    uint64_t chunks_damaged;    /* chunks cut short by corrupt/partial bytes */
    uint64_t events;            /* decodable events, all threads */
    uint64_t lost_events;       /* events the writer said it lost */
    uint64_t bytes;             /* file size */
    uint64_t data_bytes;        /* bytes of records (excluding padding) */
    uint64_t duration_ns;       /* last event time - first */
    int values;                 /* 1: calls carry argument registers and
                                   return values (format 1.1, -pg -mfentry) */
    int sites;                  /* 1: ENTERs carry their call site (format
                                   1.2; ttf_event.call_site) */
    uint64_t cut_threads;       /* threads whose stream was cut (CUT
                                   records, or the header's count if more) */
    int cut_reason;             /* first cut's TTF_CUT_*, -1: nothing cut */
    uint64_t cut_events;        /* events lost to cuts and in no LOST record
                                   (header counters and cut table; also
                                   counted in lost_events) */
    uint64_t truncated_at;      /* the file ends inside a chunk, at this
                                   offset (copied or read while written,
                                   cut in transfer); 0 if not */
} ttf_summary;

typedef struct ttf_process {
    int64_t pid, ppid;
    const char *exe;            /* "" if unknown */
    int argc;
    const char *const *argv;    /* argc strings */
    const char *parent_trace;   /* "" unless forked from a traced parent */
    uint64_t start_realtime_ns;
    int exited;                 /* clean exit recorded */
    int exit_status;
    unsigned chaos;             /* TTF_PROC_CHAOS*: the run was shaken by
                                   libttcap's chaos mode (TTCAP_CHAOS); 0 = not */
    uint64_t chaos_seed;        /* its seed, when chaos != 0 */
    int64_t exit_thread;        /* index of the thread whose stream holds the
                                   END record (the one that called exit), -1
                                   if none */
    const char *exec_path;      /* the program the process exec'd at its end
                                   (format 1.3: EXEC, header TTF_HEADER_EXEC);
                                   "" if it did not end by exec */
} ttf_process;

/* ttf_process.chaos bits (FORMAT.md, PROCESS) */
#define TTF_PROC_CHAOS 0x1u         /* yields and sleeps at sync operations */
#define TTF_PROC_CHAOS_ENTRIES 0x2u /* and at function entries */

typedef struct ttf_module {
    const char *path;
    uint64_t base, size;        /* load address (bias) and extent */
    const uint8_t *build_id;    /* raw bytes, build_id_len of them */
    size_t build_id_len;
    uint64_t load_ns;           /* time loaded (0 = at start) */
    uint64_t unload_ns;         /* UINT64_MAX while still loaded */
} ttf_module;

typedef struct ttf_thread {
    uint32_t index;             /* creation order, from 0 (0 = main) */
    int64_t tid;                /* OS thread id */
    const char *name;           /* last name seen ("" if none) */
    const char *first_name;     /* name at start */
    uint64_t start_ns, end_ns;  /* end_ns valid when ended */
    int ended;
    uint64_t events;            /* decodable events in its stream */
    uint64_t lost_events;
    uint32_t chunks, seq_gaps;  /* chunk count; missing sequence numbers */
    int cut;                    /* 1: its stream ends early: with a CUT
                                   record (the writer got no chunk), or at
                                   the end of a truncated file (it may have
                                   gone on past it: it had not ended) */
    uint64_t digest;            /* a hash of its events in order: each
                                   one's kind and, for an ENTER or EXIT,
                                   its address within its page (the same
                                   in two runs under ASLR); no times. The
                                   same calls in the same order give the
                                   same digest (2.25) */
} ttf_thread;

typedef struct ttf_callsite {
    uint32_t id;
    int kind;                   /* TTF_SITE_* */
    int level;
    uint32_t line;
    const char *fmt, *file, *func;
    uint32_t nargs;
    const uint8_t *types;       /* nargs TTF_ARG_* codes */
} ttf_callsite;

/* Integer argument registers recorded per ENTER (x86-64 SysV order: rdi,
 * rsi, rdx, rcx, r8, r9). */
#define TTF_VALUE_REGS 6

/* SSE argument registers recorded per ENTER (format 1.5): xmm0..xmm7, their
 * low 8 bytes (a double, or a float in the low 4), held in
 * ttf_event.argregs after the integer ones: slot TTF_XMM_SLOT(k) is xmm_k. */
#define TTF_XMM_REGS 8
#define TTF_XMM_SLOT(k) (TTF_VALUE_REGS + (k))
#define TTF_VALUE_SLOTS (TTF_VALUE_REGS + TTF_XMM_REGS)

/* One decoded event. Pointers are into the trace and live as long as it.
 * Values (format 1.1) are copies held in the event itself: has_values says
 * whether argregs (ENTER) or retval (EXIT) were recorded; when it is 0 they
 * are not set and must not be read. The registers are raw: how many are
 * parameters, and of what type, comes from debug info (ttf_sym_signature). */
typedef struct ttf_event {
    int kind;                   /* TTF_EV_* */
    uint32_t thread;            /* thread index */
    uint64_t tsc;               /* raw counter value */
    uint64_t time_ns;           /* ns since trace start */
    uint64_t addr;              /* function address (ENTER/EXIT), module base */
    uint32_t site;              /* call site id (MESSAGE, MARK, scopes), 0 = none */
    const uint8_t *args;        /* MESSAGE: raw argument bytes */
    size_t args_len;
    int depth;                  /* call depth before this event (an EXIT's is
                                   one more than its ENTER's) */
    int signo, code;            /* CRASH: signal, si_code; END: exit status */
    uint64_t fault_addr;        /* CRASH */
    uint64_t lost_events, lost_bytes; /* LOST */
    const char *text;           /* THREAD_NAME: the name; else NULL */
    uint64_t offset;            /* byte offset of the record in the file */
    int has_values;             /* 1: ENTER has argregs, EXIT has retval */
    unsigned changed;           /* ENTER: registers that changed since the
                                   chunk's previous ENTER (bit i = reg i) */
    uint64_t argregs[TTF_VALUE_SLOTS]; /* ENTER: rdi, rsi, rdx, rcx, r8, r9,
                                   then xmm0..7 (format 1.5; 0 in older
                                   traces, whose signatures place nothing
                                   there) */
    uint64_t retval;            /* EXIT: rax as returned */
    int64_t sync_arg;           /* SYNC_OP: the mutex (WAIT), result
                                   (TRYLOCK, WOKE), thread index (CREATE) */
    uint64_t call_site;         /* ENTER (format 1.2): the return address in
                                   the caller, absolute (as addr: this run's
                                   address space); 0 = not recorded (older
                                   traces, writers without sites) and on
                                   every other kind of event */
    uint32_t unwound;           /* UNWIND: frames closed (0 otherwise) */
    int untimed;                /* 1: an EXIT (format 1.4, the sparse clock)
                                   or ENTER (1.7, lazy) whose time was not
                                   measured: the true time is between
                                   early_ns and
                                   late_ns; tsc and time_ns are the reader's
                                   estimate in between (FORMAT.md 4.5) */
    uint64_t late_ns;           /* untimed: the latest it can have been
                                   (the thread's next measured time) */
    int has_xmm;                /* 1: ENTER has xmm0..7 in argregs, EXIT
                                   xmm0 in retxmm (format 1.5) */
    unsigned xchanged;          /* ENTER: SSE registers that changed since
                                   the chunk's previous ENTER (bit i) */
    uint64_t retxmm;            /* EXIT: xmm0's low 8 bytes as returned (a
                                   float or double result) */
    const uint8_t *strs;        /* ENTER (format 1.6): its STRINGS record's
                                   payload, checked (read it with
                                   ttf_event_string), in the trace's memory;
                                   NULL: no string recorded */
    uint32_t strs_len;          /* its bytes */
    uint64_t early_ns;          /* untimed: the earliest it can have been
                                   (the thread's previous measured time);
                                   an ENTER of a lazy chunk can be untimed
                                   too (format 1.7, FORMAT.md 4.7) */
} ttf_event;

/* The first bytes of a string an ENTER's argument register pointed to, as
 * libttcap read them at the call (format 1.6; a char * or a std::string,
 * by the function's debug info; at most TTF_STRING_PREFIX bytes). */
typedef struct ttf_string {
    unsigned reg;               /* integer argument register 0..5 (rdi..r9) */
    int std;                    /* 1: the register held a std::string's
                                   address; text is its characters */
    unsigned len;               /* bytes in text */
    int complete;               /* 1: the string ends after them */
    int unreadable;             /* 1: the memory after them could not be read
                                   (len 0: the pointer itself was bad) */
    const uint8_t *text;        /* the bytes (no NUL), in the trace's memory */
} ttf_string;

#define TTF_STRING_PREFIX 32    /* bytes libttcap records of a string at most */

/* The string recorded for register reg (0..5) of the ENTER ev: 1 with
 * *out, 0 when none was recorded (an older trace, a function without
 * string parameters, a program built without ttcc's string table). */
int ttf_event_string(const ttf_event *ev, unsigned reg, ttf_string *out);

/* A recorded string as text, like snprintf: quoted and escaped as C does
 * ("a\"b\n", \xNN for other bytes), followed by an ellipsis when it was
 * cut ("abcd..." with U+2026), "(unreadable)" when its pointer could not
 * be read, "\"ab\"... (unreadable after)" when it ran into memory that
 * could not. */
int ttf_string_format(char *buf, size_t len, const ttf_string *s);

/* 1 when a and b read the same as far as both were recorded (two cut
 * strings with the same first bytes are the same: their rest is unknown). */
int ttf_string_same(const ttf_string *a, const ttf_string *b);

/* The latest time ev can have happened at: late_ns for an untimed EXIT
 * (the bound analyses that must not shorten a call use), else time_ns. */
static inline uint64_t ttf_event_late_ns(const ttf_event *ev)
{
    return ev->untimed ? ev->late_ns : ev->time_ns;
}

/* The earliest time ev can have happened at: early_ns for an untimed
 * event, else time_ns. A call's length is never shortened by taking its
 * ENTER's early and its EXIT's late time. */
static inline uint64_t ttf_event_early_ns(const ttf_event *ev)
{
    return ev->untimed ? ev->early_ns : ev->time_ns;
}

/* Open a trace file (memory-mapped, read-only) and index it: header,
 * metadata records and each thread's chunks. A file whose writer died is
 * not an error: ttf_summary says it was not closed and what was recovered.
 * Errors: TT_EIO (cannot open/map), TT_ETRUNC (shorter than a header),
 * TT_ECORRUPT (bad magic, bad header), TT_EVERSION, TT_EFEATURE, TT_ENOMEM.
 * On error *out is NULL and err (may be NULL) says what and where. */
int ttf_open(const char *path, ttf_trace **out, ttf_error *err);

/* The same over a caller's buffer, which must outlive the trace. name is
 * used in messages (may be NULL). */
int ttf_open_mem(const void *buf, size_t len, const char *name,
                 ttf_trace **out, ttf_error *err);

/* ---- the process table of a recorded tree (FORMAT.md section 11) ------- */

/* One process image of the tree (a row of DIR/processes.ttp). */
typedef struct ttf_proc {
    uint32_t pid, ppid;         /* as the process saw them */
    uint32_t parent_pid;        /* the pid of the row it names as its parent */
    uint64_t parent_start_ns;   /* and that row's start (0 = not known) */
    uint64_t start_ns, end_ns;  /* CLOCK_REALTIME; end_ns 0: no END row */
    int how;                    /* how it began: TTF_PROC_ROOT, _FORK, _EXEC, _SPAWN */
    int traced;                 /* it wrote a trace (trace names it) */
    int ended;                  /* 0 no END row (killed, or still running);
                                   TTF_PROC_EXITED, _EXECED, _SIGNALED */
    int status, signal;         /* exit status; the signal that ended it */
    const char *exe;            /* the executable's path */
    const char *build_id;       /* its build-id, hex ("" unknown) */
    const char *cwd;            /* working folder at its start */
    const char *trace;          /* its trace's name in DIR ("" none) */
    const char *const *argv;    /* argc strings */
    size_t argc;
    int64_t parent;             /* index of its parent row, -1 a root; an
                                   exec'd image's parent is the image before */
    const char *const *env;     /* its environment at start ("NAME=value"),
                                   nenv strings; NULL: not recorded (an older
                                   writer, or its ENV rows were lost) */
    size_t nenv;
    int reaped;                 /* 1: its end is its parent's REAP row (it
                                   was killed and wrote no END) */
    uint32_t fork_nth;          /* a fork child: which fork (from 1) of its
                                   parent's image; 0 not recorded */
} ttf_proc;

enum { TTF_PROC_ROOT = 0, TTF_PROC_FORK = 1, TTF_PROC_EXEC = 2, TTF_PROC_SPAWN = 3 };
enum { TTF_PROC_EXITED = 1, TTF_PROC_EXECED = 2, TTF_PROC_SIGNALED = 3 };

#define TTF_PTABLE_NAME "processes.ttp"  /* in the tree's folder */
#define TTF_PTABLE_ENVS "processes.envs" /* its writers' list of environments */
typedef struct ttf_ptable ttf_ptable;

/* Read DIR's process table. TT_EIO when DIR has none (not a recorded
 * tree), TT_ECORRUPT for a damaged row (err names the offset); a row cut
 * by the end of the file is dropped (ttf_ptable_dropped). Rows of kinds
 * it does not know and fields after those it knows are skipped (FORMAT.md
 * section 11, revisions). */
int ttf_ptable_open(const char *dir, ttf_ptable **out, ttf_error *err);
size_t ttf_ptable_count(const ttf_ptable *t);
size_t ttf_ptable_dropped(const ttf_ptable *t);
const ttf_proc *ttf_ptable_get(const ttf_ptable *t, size_t i);
void ttf_ptable_close(ttf_ptable *t);

/* Append to DIR's table a REAP row: process pid (the last image of that
 * pid) was killed by signal sig and reaped by the caller, which is not in
 * the tree (ttrec, the root's parent). 0; TT_EINVAL when dir is not a
 * folder, TT_EIO when it has no table or the write fails. */
int ttf_ptable_reaped(const char *dir, uint32_t pid, int sig);

/* Release a trace and everything it handed out. NULL is fine. */
void ttf_close(ttf_trace *t);

const char *ttf_path(const ttf_trace *t);
const ttf_header *ttf_get_header(const ttf_trace *t);
const ttf_summary *ttf_get_summary(const ttf_trace *t);
/* A cut trace (disk full...) in one line, into buf (len bytes): "trace
 * cut: disk full after 1200 events; 5400 events could not be written (1
 * thread cut)", or for a truncated file "trace cut: the file ends at
 * offset 14000, inside its data, after 4835 events (1 thread cut)". 1 if
 * the trace was cut, else 0 with buf "". */
int ttf_cut_text(const ttf_trace *t, char *buf, size_t len);
/* "disk full", "write failed", "file size limit" or "writer stopped" for a
 * TTF_CUT_* reason. */
const char *ttf_cut_reason_name(int reason);
/* The header's cut table: threads cut off, in the order they were cut (a
 * thread that never got a chunk is only here). NULL past the end. */
size_t ttf_cut_count(const ttf_trace *t);
const ttf_cut *ttf_get_cut(const ttf_trace *t, size_t i);
const ttf_process *ttf_get_process(const ttf_trace *t);

size_t ttf_module_count(const ttf_trace *t);
const ttf_module *ttf_get_module(const ttf_trace *t, size_t i);

size_t ttf_thread_count(const ttf_trace *t);
/* Threads by index, creation order; NULL past the end. */
const ttf_thread *ttf_get_thread(const ttf_trace *t, size_t i);

/* A call site by id; NULL if the trace never defined it. */
const ttf_callsite *ttf_get_callsite(const ttf_trace *t, uint32_t id);

/* Notices gathered while opening (damaged chunks, sequence gaps, skipped
 * optional records), one line each; n of them. */
size_t ttf_notice_count(const ttf_trace *t);
const char *ttf_get_notice(const ttf_trace *t, size_t i);

/* Iterate over one thread's events in order (thread = index), or over all
 * threads merged by time (thread = TTF_ALL_THREADS; ties keep thread order).
 * ttf_iter_next returns 1 with *ev filled, 0 at the end, or a negative
 * TT_E* code; damaged bytes end their chunk (a LOST event marks the spot)
 * rather than failing the iteration. */
#define TTF_ALL_THREADS UINT32_MAX
typedef struct ttf_iter ttf_iter;
int ttf_iter_open(const ttf_trace *t, uint32_t thread, ttf_iter **out);
int ttf_iter_next(ttf_iter *it, ttf_event *ev);
/* A second iteration of one thread (not TTF_ALL_THREADS) that goes on
 * from where it is: its next event is it's next event; each is closed on
 * its own. 0, TT_EINVAL (a merged iteration) or TT_ENOMEM. */
int ttf_iter_clone(const ttf_iter *it, ttf_iter **out);
/* From now on, it's events come without values (has_values and has_xmm
 * 0, argregs and retval not read): a values trace's registers are stepped
 * over, not decoded, for passes that never read them; every other field
 * is as without it. Its clones skip them too. 0 or TT_EINVAL. */
int ttf_iter_skip_values(ttf_iter *it);
/* From now on, it's events without a measured time (untimed: the sparse
 * clock's EXITs, the lazy clock's runs, FORMAT.md 4.5 and 4.7) are not
 * placed between their bounds: each takes its earliest bound (the last
 * measured time before it) as tsc, time_ns, early_ns and late_ns, for
 * passes that never read times (the look-ahead to the next measured time
 * and the gap means are skipped); measured events and every other field
 * are as without it. Its clones skip them too. 0 or TT_EINVAL. */
int ttf_iter_skip_times(ttf_iter *it);
/* Times back in a one-thread iteration that skipped them
 * (ttf_iter_skip_times): *ev, the event it gave last, gets the times
 * (tsc, time_ns, untimed, early_ns, late_ns) an iteration without the skip
 * gives it, and its next events come with theirs. Exact: a chunk's times
 * are its own (FORMAT.md 4.7), so its chunk is read again from its start
 * up to ev, values stepped over (a chunk's events at most, once). For a
 * pass that needs few times: skip them, and take one when it is needed
 * (then ttf_iter_skip_times again). 0, TT_EINVAL (a merged iteration, or
 * ev not the last event given) or TT_ENOMEM (nothing changed). */
int ttf_iter_times(ttf_iter *it, ttf_event *ev);
/* The same for an event a one-thread iteration gave before, by its
 * offset (ev->offset, ev->kind: an event of the thread in a chunk the
 * iteration has begun), whether or not it skipped times then: *ev gets
 * the times an iteration without the skip gives it; the iteration goes
 * on as it was. Its chunk is read again from the chunk's start up to it,
 * values stepped over, and that reading is kept: a later event of the
 * same chunk costs only the records between (ask in the order read). For
 * a pass that keeps events it read without times and needs the times of
 * a few. 0, TT_EINVAL (a merged iteration, or no such event) or
 * TT_ENOMEM (nothing changed). */
int ttf_iter_times_at(ttf_iter *it, ttf_event *ev);
/* Values back in a one-thread iteration that skipped them
 * (ttf_iter_skip_values): *ev, the event it gave last, gets the values
 * (has_values, has_xmm, argregs, retval, retxmm, strs, strs_len) an
 * iteration without the skip gives it, and its next events come with
 * theirs. Exact: a chunk's registers are its own (FORMAT.md 4.1), so its
 * chunk is read again from its start up to ev, with values (times skipped
 * as it skips them). For a pass that needs values only from some event
 * on: skip them up to there. Its clones made before keep skipping them.
 * 0 (nothing skipped: 0 too), TT_EINVAL (a merged iteration, or ev not the
 * last event given) or TT_ENOMEM (nothing changed). */
int ttf_iter_values(ttf_iter *it, ttf_event *ev);
/* The values of an event a one-thread iteration gave before, by its
 * offset (ev->offset, ev->kind: an event of the thread in a chunk the
 * iteration has begun), whether or not it skipped values then: *ev gets
 * the values ttf_iter_values lists as an iteration without the skip
 * gives them; the iteration goes on as it was. Its chunk is read again
 * from the chunk's start up to it, times skipped, and that reading is
 * kept: a later event of the same chunk costs only the records between
 * (ask in the order read). For a pass that read events without values
 * and needs those of a few (the calls open where it turns them on).
 * 0, TT_EINVAL (a merged iteration, or no such event) or TT_ENOMEM
 * (nothing changed). */
int ttf_iter_values_at(ttf_iter *it, ttf_event *ev);
void ttf_iter_close(ttf_iter *it);

/* Write a trace string (name, message, path: anything read from a trace)
 * for a terminal, so nothing in it can act as a control sequence: newline
 * and tab as \\n \\t, other C0 controls and DEL as \\xNN, C1 controls
 * (U+0080..U+009F) as \\xc2\\xNN, each byte of invalid UTF-8 as \\xNN (a
 * lone 0x9B is an 8-bit CSI); valid UTF-8 is kept. NULL writes nothing.
 * 0, or TT_EIO if f has an error. */
int ttf_put_text(FILE *f, const char *s);

/* Length (1..4) of the valid UTF-8 sequence at s, 1 for an ASCII byte
 * (NUL included), 0 if s does not start one (a stray continuation byte,
 * an overlong form, a surrogate, past U+10FFFF, cut short). Reads at most
 * up to the first byte that breaks the sequence, so a NUL-terminated
 * string is never overrun. For escapers of every output format. */
size_t ttf_utf8_len(const unsigned char *s);

/* Format a MESSAGE or MARK event as text (printf rules on the call site's
 * format and the stored args; VALUE sites print "name = value"). Writes at
 * most len bytes including the NUL and returns the length it wanted, like
 * snprintf, or a negative TT_E* code (TT_ECORRUPT for args that do not
 * match the site's types, TT_ENOTFOUND if the trace never defined the
 * site, TT_EINVAL for other event kinds). */
int ttf_format_message(const ttf_trace *t, const ttf_event *ev,
                       char *buf, size_t len);

/* Convert an event time to CLOCK_REALTIME nanoseconds. */
uint64_t ttf_realtime_ns(const ttf_trace *t, uint64_t time_ns);
/* Convert an event time to CLOCK_MONOTONIC nanoseconds (the clock a
 * program reads for timeouts and deadlines: glib's g_get_monotonic_time),
 * from the trace's earliest clock-sync point; 0 when the trace has none. */
uint64_t ttf_monotonic_ns(const ttf_trace *t, uint64_t time_ns);
/* The event time (ns since the trace start) of counter value tsc, as the
 * reader gives every event with a measured time (a SYNC_OP's time_ns is
 * ttf_tick_ns(t, its tsc)): a reader that keeps many events' ticks can
 * keep the tick alone. Non-decreasing in tsc from the trace's start. */
uint64_t ttf_tick_ns(const ttf_trace *t, uint64_t tsc);

/* ---- writing ----------------------------------------------------------- */

/* A simple single-process writer, for tests, tools and synthetic traces
 * (libttcap has its own lock-free writer producing the same bytes). Events
 * are written to per-thread chunks in memory and flushed to the file. */
typedef struct ttf_writer ttf_writer;

typedef struct ttf_writer_opts {
    uint32_t chunk_size;        /* 0 = 256 KiB */
    int timed;                  /* 1: hot events carry time deltas (default) */
    uint64_t tsc_hz;            /* 0 = 1e9 (tsc values are nanoseconds) */
    uint64_t start_realtime_ns;
    int ring;                   /* mark TTF_OPT_RING */
    int values;                 /* 1: a format 1.1 trace whose ENTER/EXIT
                                   events carry values (0 registers unless
                                   written with the *_values calls) */
    int sites;                  /* 1: a format 1.2 trace whose ENTERs carry
                                   call sites from the start (else the first
                                   ENTER written with a site makes it one, and
                                   the header says so once it is rewritten at
                                   close or abandon) */
    unsigned chaos;             /* TTF_PROC_CHAOS*: the PROCESS record says
                                   the run was in chaos mode (0 = not) */
    uint64_t chaos_seed;        /* with chaos: its seed */
    int xmm;                    /* with values: a format 1.5 trace whose
                                   ENTER/EXIT events carry the SSE registers
                                   too (0 unless written with the *_xmm
                                   calls) */
    int sparse;                 /* with timed: a format 1.4 trace of the
                                   sparse clock (TTF_REQ_SPARSE): EXITs
                                   carry a time only when TIMED or SAMPLE
                                   (ttf_write_exit_sparse; every other EXIT
                                   is TIMED) */
    int lazy;                   /* with sparse: a format 1.7 trace of the
                                   lazy clock (TTF_REQ_LAZY): an ENTER right
                                   after an untimed EXIT carries no time (its
                                   tsc is dropped); with values too, format
                                   1.8 (TTF_REQ_VLAZY) */
    int chain;                  /* with lazy: a format 1.9 trace of the
                                   chain rule (TTF_REQ_CHAIN): an ENTER right
                                   after an untimed ENTER carries no time
                                   either */
} ttf_writer_opts;

/* Create path (fails with TT_EIO if it exists). opts may be NULL. */
int ttf_writer_open(const char *path, const ttf_writer_opts *opts,
                    ttf_writer **out);
int ttf_write_process(ttf_writer *w, int64_t pid, int64_t ppid,
                      const char *exe, int argc, const char *const *argv,
                      const char *parent_trace);
/* Thread indexes are given by the caller in creation order from 0. */
int ttf_write_thread_start(ttf_writer *w, uint32_t thread, uint64_t tsc,
                           int64_t tid, const char *name);
int ttf_write_thread_name(ttf_writer *w, uint32_t thread, uint64_t tsc,
                          const char *name);
int ttf_write_thread_end(ttf_writer *w, uint32_t thread, uint64_t tsc);
int ttf_write_module(ttf_writer *w, uint32_t thread, uint64_t tsc,
                     uint64_t base, uint64_t size, const uint8_t *build_id,
                     size_t build_id_len, const char *path);
int ttf_write_module_unload(ttf_writer *w, uint32_t thread, uint64_t tsc,
                            uint64_t base);
int ttf_write_enter(ttf_writer *w, uint32_t thread, uint64_t tsc,
                    uint64_t addr);
int ttf_write_exit(ttf_writer *w, uint32_t thread, uint64_t tsc,
                   uint64_t addr);
/* An ENTER with its argument registers (rdi..r9), and an EXIT with its
 * return value, for a writer opened with opts.values (TT_EINVAL otherwise;
 * regs may not be NULL). ttf_write_enter/exit on such a writer record
 * zeros. Errors as ttf_write_enter. */
int ttf_write_enter_values(ttf_writer *w, uint32_t thread, uint64_t tsc,
                           uint64_t addr, const uint64_t regs[TTF_VALUE_REGS]);
/* The same with the SSE registers xmm0..7 (their low 8 bytes), and an EXIT
 * with rax and xmm0, for a writer opened with opts.values and opts.xmm
 * (TT_EINVAL otherwise; regs and xmm may not be NULL). Errors as
 * ttf_write_enter. */
int ttf_write_enter_xmm(ttf_writer *w, uint32_t thread, uint64_t tsc,
                        uint64_t addr, const uint64_t regs[TTF_VALUE_REGS],
                        const uint64_t xmm[TTF_XMM_REGS]);
int ttf_write_exit_xmm(ttf_writer *w, uint32_t thread, uint64_t tsc,
                       uint64_t addr, uint64_t retval, uint64_t xmm0);
/* How an EXIT of a sparse writer keeps its time (FORMAT.md 4.5): not
 * measured (no delta; readers place it between the measured times around
 * it), measured (TIMED prefix), or measured as a random sample of the
 * EXITs the clock would have skipped (SAMPLE prefix). */
enum { TTF_EXIT_UNTIMED = 0, TTF_EXIT_TIMED = 1, TTF_EXIT_SAMPLE = 2 };
/* An EXIT of a writer opened with opts.sparse (TT_EINVAL otherwise, or for
 * a clock not TTF_EXIT_*); tsc is ignored when clock is TTF_EXIT_UNTIMED.
 * Errors as ttf_write_enter. */
int ttf_write_exit_sparse(ttf_writer *w, uint32_t thread, uint64_t tsc,
                          uint64_t addr, int clock);
/* The same with the return value, for a writer opened with opts.values
 * and opts.sparse (TT_EINVAL otherwise). With opts.lazy too (format 1.8,
 * TTF_REQ_VLAZY) the ENTER after an untimed one goes untimed. */
int ttf_write_exit_value_sparse(ttf_writer *w, uint32_t thread, uint64_t tsc,
                                uint64_t addr, uint64_t retval, int clock);
/* An ENTER with its call site (format 1.2): call_site is the return address
 * in the caller, as libttcap records it; 0 = not recorded (the same as
 * ttf_write_enter). A non-zero site makes the trace a sites trace
 * (TTF_REQ_SITES: readers older than 2.5 refuse it). Costs nothing in the
 * file when the function's previous call (in the chunk) came from the same
 * site, one byte when from the site before that, else a few. The values
 * variant is ttf_write_enter_values with a site. Errors as those calls. */
int ttf_write_enter_site(ttf_writer *w, uint32_t thread, uint64_t tsc,
                         uint64_t addr, uint64_t call_site);
int ttf_write_enter_values_site(ttf_writer *w, uint32_t thread, uint64_t tsc,
                                uint64_t addr, uint64_t call_site,
                                const uint64_t regs[TTF_VALUE_REGS]);
int ttf_write_exit_value(ttf_writer *w, uint32_t thread, uint64_t tsc,
                         uint64_t addr, uint64_t retval);
/* A STRINGS record (format 1.6) for thread's next ENTER, which must be
 * written next on that thread: n strings (reg 0..5, each once; len at most
 * 63; text may be NULL when len is 0). Sets TTF_HEADER_STRINGS and minor
 * version 6 in the header. For a writer opened with opts.values
 * (TT_EINVAL otherwise, or for a bad entry). */
int ttf_write_strings(ttf_writer *w, uint32_t thread, const ttf_string *s, size_t n);
int ttf_write_callsite(ttf_writer *w, uint32_t thread,
                       const ttf_callsite *site);
/* args: raw bytes encoded per the site's types (see FORMAT.md). */
int ttf_write_message(ttf_writer *w, uint32_t thread, uint64_t tsc,
                      uint32_t site, const void *args, size_t args_len);
int ttf_write_scope(ttf_writer *w, uint32_t thread, uint64_t tsc,
                    uint32_t site, int enter);
int ttf_write_mark(ttf_writer *w, uint32_t thread, uint64_t tsc,
                   uint32_t site);
int ttf_write_crash(ttf_writer *w, uint32_t thread, uint64_t tsc, int signo,
                    int code, uint64_t fault_addr);
int ttf_write_lost(ttf_writer *w, uint32_t thread, uint64_t tsc,
                   uint64_t events, uint64_t bytes);
int ttf_write_pause(ttf_writer *w, uint32_t thread, uint64_t tsc, int pause);
/* A CUT record (the thread could write no further: reason TTF_CUT_*, 0..255)
 * and, in the header's cut counters, one thread more and unwritten events
 * that were never written after it (as libttcap counts them). TT_EINVAL. */
int ttf_write_cut(ttf_writer *w, uint32_t thread, uint64_t tsc, int reason,
                  uint64_t unwritten);
/* An UNWIND record (format 1.3): the innermost `frames` open frames of
 * thread were left without an EXIT, how = TTF_UNWIND_* (0..255), as
 * libttcap writes one at a longjmp. TT_EINVAL for a bad how. */
int ttf_write_unwind(ttf_writer *w, uint32_t thread, uint64_t tsc, int how,
                     uint32_t frames);
/* A SYNC_OP record (op TTF_SOP_*, 1..255) on object obj; sets the optional
 * feature TTF_HEADER_SYNC in the header. TT_EINVAL for a bad op. */
int ttf_write_sync_op(ttf_writer *w, uint32_t thread, uint64_t tsc, int op,
                      uint64_t obj, int64_t arg);
/* Write the end marker (clean exit with status), flush and close. */
int ttf_writer_close(ttf_writer *w, int exit_status);
/* The same with the end marker in thread's stream: the thread that called
 * exit (ttf_process exit_thread). A bad thread index is TT_EINVAL. */
int ttf_writer_close_in(ttf_writer *w, uint32_t thread, int exit_status);
/* Flush and close without an end marker, as if the writer died. */
int ttf_writer_abandon(ttf_writer *w);

/* ---- symbols ----------------------------------------------------------- */

/* Resolves addresses through the trace's module map and the ELF files on
 * disk (elfutils libdw). Checks each module's build-id; a missing or
 * different file is looked for by build-id (ttf_sym_search), else falls
 * back to "module+0xoffset"; either way one notice says so.
 * Results are cached per address: each ELF file is opened once. */
typedef struct ttf_sym ttf_sym;

int ttf_sym_open(const ttf_trace *t, ttf_sym **out);
/* TT_ENOMEM if any answer of s so far was degraded for want of memory (a
 * name read "?", a notice or a signature went missing), else 0: a tool
 * checks it before trusting what it printed. */
int ttf_sym_status(const ttf_sym *s);
void ttf_sym_close(ttf_sym *s);

/* Where ttf_sym_open looks for a module whose file at the recorded path is
 * missing or another build, by the recorded build-id: the nexe files exe
 * (ttdump/ttdiff --exe; each used only for the module with its build-id),
 * then the .build-id/xx/yyyy[.debug] trees of the trace's folder, of the
 * TTCAP_STORE folder and of dirs (colon-separated, --debug-dir), then
 * libdwfl's (/usr/lib/debug, debuginfod if DEBUGINFOD_URLS is set).
 * Process-wide, for every later ttf_sym_open; call it before opening, not
 * concurrently with it. Strings are copied; (NULL, 0, NULL) clears.
 * Errors: TT_EINVAL (exe NULL with nexe > 0), TT_ENOMEM (all cleared). */
int ttf_sym_search(const char *const *exe, size_t nexe, const char *dirs);

/* C++ names: on (the default) shows "ns::Foo::bar(int)" for the symbol
 * "_ZN2ns3Foo3barEi", through the C++ runtime's __cxa_demangle when
 * libstdc++.so.6 can be loaded (else names stay mangled); off keeps symbols
 * as stored. Only names starting with "_Z" are touched. Changing it
 * empties the name cache; names handed out earlier stay valid. Errors:
 * TT_EINVAL for a NULL s. */
int ttf_sym_set_demangle(ttf_sym *s, int on);

/* The function name at addr, never NULL: the symbol, else
 * "libfoo.so+0x1a2b", else "0x7f..." . Valid until ttf_sym_close. */
const char *ttf_sym_name(ttf_sym *s, uint64_t addr);

/* Source file and line of addr; TT_ENOTFOUND without debug info. */
int ttf_sym_line(ttf_sym *s, uint64_t addr, const char **file, int *line);

/* The name of an ENTER/EXIT event (site func for TT_SCOPE events). */
const char *ttf_sym_event_name(ttf_sym *s, const ttf_event *ev);

/* Source file and line of an event, like ttf_sym_line but through the
 * module loaded at the event's time (as ttf_sym_event_name): an address
 * reused by another module after an unload reads the right file. Events
 * with a call site (TT_SCOPE enter/exit, messages, marks) give the site's
 * file:line. *file lives until ttf_sym_close. Errors: TT_EINVAL (NULL
 * argument), TT_ENOTFOUND (no debug info, no such site), TT_ENOMEM. */
int ttf_sym_event_line(ttf_sym *s, const ttf_event *ev, const char **file,
                       int *line);

/* One frame of an address's inline chain (ttf_sym_inline). */
typedef struct ttf_inline_frame {
    const char *function;   /* the function: an inlined one's name from its
                               DWARF (DW_AT_abstract_origin; C++ demangled
                               as ttf_sym_name), the out-of-line one's as
                               ttf_sym_name shows it; NULL if unnamed */
    const char *file;       /* source file of `line` (made absolute with the
                               unit's compile folder), NULL if unknown */
    int line;               /* where this frame was: the innermost frame at
                               the address's own line; every other frame at
                               the line where the frame inside it was
                               inlined (DW_AT_call_line); 0 if unknown */
    const char *decl_file;  /* where the function is defined, NULL if */
    int decl_line;          /* unknown (DW_AT_decl_file/line; a function
                               the compiler made without one, a lambda's
                               operator(): its class's); 0 if unknown */
    int end_line;           /* the last frame (out-of-line): the last line
                               of its body the line table names in its file
                               (its closing brace, mostly); else 0 */
    int inlined;            /* 1: the compiler inlined this function into
                               the next frame; 0 for the last frame, the
                               out-of-line function holding the address */
} ttf_inline_frame;

/* The inline chain at addr of the module loaded at time_ns (as
 * ttf_sym_event_name picks it; UINT64_MAX: the module loaded last): the
 * inlined functions whose code holds addr, innermost first, each with the
 * line it was at, then the out-of-line function (the last frame, inlined
 * 0). With nothing inlined there, one frame. For a call site give the
 * return address - 1 (inside the call instruction). *out (n frames) lives
 * until ttf_sym_close; answers are cached per address. Errors: TT_EINVAL
 * (NULL argument), TT_ENOTFOUND (no module, no DWARF describes addr),
 * TT_ENOMEM. */
int ttf_sym_inline(ttf_sym *s, uint64_t addr, uint64_t time_ns,
                   const ttf_inline_frame **out, size_t *n);

/* One function the compiler inlined into another (ttf_sym_inlined_in). */
typedef struct ttf_inlined {
    const char *function;   /* its name, from its copies' abstract origin
                               (C++ demangled as ttf_sym_name) */
    const char *decl_file;  /* where it is defined (made absolute with the
                               unit's compile folder), NULL if unknown */
    int decl_line;          /* its DW_AT_decl_line (a lambda's operator():
                               its class's, the lambda's line), 0 if
                               unknown */
    int depth;              /* nesting of its deepest copy: 1 inlined into
                               the function itself, 2 into a function
                               inlined there, ... */
    int copies;             /* its inlined copies in the function */
} ttf_inlined;

#define TTF_INLINED_MAX 16  /* a sensible max for ttf_sym_inlined_in */

/* The functions inlined into the out-of-line function holding fn_addr (any
 * address of its code; the module loaded at time_ns, as ttf_sym_inline):
 * every DW_TAG_inlined_subroutine nested anywhere in its
 * DW_TAG_subprogram, each function once, deepest copy first (the
 * innermost helper is the most specific), then in the order of the DWARF;
 * at most max into out (*n of them; the walk itself is bounded too).
 * Names and files live until ttf_sym_close. 0 (also when nothing was
 * inlined: *n = 0). Errors: TT_EINVAL (NULL argument), TT_ENOTFOUND (no
 * module, no DWARF describes fn_addr), TT_ENOMEM. */
int ttf_sym_inlined_in(ttf_sym *s, uint64_t fn_addr, uint64_t time_ns,
                       ttf_inlined *out, size_t max, size_t *n);

/* 1 if file (a source path from debug info; NULL is 0) is a system
 * header's: the C library's, the C++ standard library's, the compiler's
 * (/usr/include, /usr/local/include, /usr/lib/gcc, /usr/lib/llvm-*, any
 * .../include/c++/...): code the program did not write. ttdiff ranks
 * such suspects last and its reports fold runs of such frames. */
int ttf_system_file(const char *file);

/* The fingerprint of the function defined at line `line` of source file
 * `file` (a decl_file/decl_line pair of the debug info): its text from
 * that line to the end of its body's braces, as tokens (comments dropped,
 * white space kept only between two words), into *hash (never 0); the body's last
 * line into *last (may be NULL). Two builds' functions with one
 * fingerprint have the same source. Errors: TT_EINVAL (NULL argument,
 * line < 1), TT_ENOTFOUND (no such regular file, larger than 16 MiB, no
 * such line, or no body there: a declaration only, a macro, braces that do
 * not close within 4000 lines), TT_ENOMEM. */
int ttf_source_hash(const char *file, int line, uint64_t *hash, int *last);

/* ttf_source_hash with the lines in nskip ranges left out of the text:
 * skip[2k] to skip[2k + 1] (first and last line, both in), the lines of
 * functions defined inside this one (a lambda, a member function of a
 * class): does the function's own text differ, apart from theirs? Same
 * errors, TT_EINVAL also for nskip > 0 with skip NULL. */
int ttf_source_hash_skip(const char *file, int line, const int *skip, size_t nskip,
                         uint64_t *hash, int *last);

/* Does the function defined at line `line` of `file` (as ttf_source_hash
 * finds its body) only pass another function's answer on: is every return
 * statement of its body `return NAME(...);` with one NAME? 1 with NAME
 * in callee (len bytes, NUL-terminated), 0 when not (no return, a return
 * of anything else, calls of two names, a NAME of len bytes or more:
 * callee ""), or ttf_source_hash's errors. */
int ttf_source_passes_on(const char *file, int line, char *callee, size_t len);

/* ---- signatures and values (format 1.1) -------------------------------- */

/* What a return value or parameter is, as far as comparing runs goes. */
enum ttf_vclass {
    TTF_VC_UNKNOWN = 0, /* no debug info: not compared */
    TTF_VC_VOID,        /* no value (a void function's rax is not a value) */
    TTF_VC_SIGNED,      /* signed integer of `size` bytes: compared exactly */
    TTF_VC_UNSIGNED,    /* unsigned integer (char, size_t, ...): exactly */
    TTF_VC_BOOL,        /* _Bool / bool: compared as 0 / 1 */
    TTF_VC_ENUM,        /* enumeration: compared exactly */
    TTF_VC_POINTER,     /* pointer or C++ reference: NULL / non-NULL only */
    TTF_VC_FLOAT,       /* float, double (size 4, 8: recorded from the SSE
                                   registers in format 1.5, compared), long
                                   double (not recorded) */
    TTF_VC_OTHER        /* struct, union, array, ...: not compared */
};

/* One named value of an enumeration (DW_TAG_enumerator). */
typedef struct ttf_enumerator {
    const char *name;           /* "RED" */
    uint64_t value;             /* its DW_AT_const_value in the comparable
                                   form of the enum (ttf_value_norm) */
} ttf_enumerator;

struct ttf_field;

/* A type, reduced to what the diff needs. */
typedef struct ttf_vtype {
    int cls;                    /* TTF_VC_* */
    unsigned size;              /* bytes (0 for void and unknown) */
    int is_signed;              /* ENUM: its underlying type is signed */
    const char *name;           /* as declared ("int", "size_t", "node *");
                                   "" if unnamed or unknown */
    const ttf_enumerator *enums;/* ENUM: its enumerators in declaration
                                   order (libttfmt 2.5), NULL when none
                                   were read (then values print as numbers) */
    size_t nenums;              /* how many */
    const struct ttf_field *fields; /* OTHER: a struct or class of at most 16
                                   bytes made of scalars (nested structs and
                                   arrays flattened), its fields in order
                                   (libttfmt 2.10); NULL for a union, a
                                   bit-field, a base class, a larger type */
    size_t nfields;             /* how many */
} ttf_vtype;

/* One scalar field of a small aggregate (ttf_vtype fields). */
typedef struct ttf_field {
    const char *name;           /* "x"; "in.y" in a nested struct, "v[1]"
                                   an array element */
    unsigned offset;            /* bytes from the aggregate's start */
    ttf_vtype type;             /* a scalar: SIGNED, UNSIGNED, BOOL, ENUM,
                                   POINTER or FLOAT of at most 8 bytes */
} ttf_field;

/* One declared parameter. */
typedef struct ttf_param {
    const char *name;           /* "" if unnamed */
    ttf_vtype type;             /* its type */
    int reg;                    /* the register it arrives in, an index into
                                   ttf_event.argregs: 0..5 = rdi..r9, or
                                   TTF_XMM_SLOT(0..7) = xmm0..7 for a float
                                   or double in a trace that records them
                                   (format 1.5); -1 if none (in memory, a
                                   struct, unplaceable, past the last);
                                   for a struct or union of at most 16 bytes
                                   passed in registers, its first
                                   eightbyte's (integer or SSE) */
    int reg2;                   /* that aggregate's second eightbyte's slot,
                                   -1 if it has one eightbyte or is not in
                                   registers (libttfmt 2.10) */
    int byref;                  /* 1: a C++ class passed by invisible
                                   reference: reg holds the address of the
                                   caller's copy (libttfmt 2.10) */
    int mem;                    /* 1: passed in memory (a large struct, or
                                   past the last register): not recorded,
                                   ttf_param_format says "(in memory)"
                                   (libttfmt 2.10) */
} ttf_param;

/* A function's signature from its DWARF debug info (x86-64 SysV calling
 * convention: integer, pointer, enum and bool parameters take rdi..r9 in
 * order; a struct returned in memory takes rdi first). */
typedef struct ttf_signature {
    ttf_vtype ret;              /* return type (cls TTF_VC_VOID for void) */
    size_t nparams;             /* declared parameters (C++: `this` first) */
    const ttf_param *params;    /* nparams of them */
    int variadic;               /* 1: ends in "..." */
    int ret_xmm;                /* 1: the return value is a float or double
                                   returned in xmm0, recorded in the trace
                                   (ttf_event.retxmm; ttf_value_ret) */
    int ret_eb[2];              /* a struct or union result of at most 16
                                   bytes in registers: where each eightbyte
                                   is, TTF_RET_RAX or TTF_RET_XMM0 (0: none);
                                   both TTF_RET_UNREC when one is in a
                                   register the trace does not record (rdx,
                                   xmm1; libttfmt 2.17, 0 before)
                                   (libttfmt 2.10; ttf_ret_format) */
} ttf_signature;

#define TTF_RET_RAX 1
#define TTF_RET_XMM0 2
#define TTF_RET_UNREC (-1)      /* in registers, not all of them recorded */

/* The signature of the function of an ENTER/EXIT event (through the module
 * loaded at the event's time, as ttf_sym_event_name). *out lives until
 * ttf_sym_close; answers are cached per function. Errors: TT_EINVAL (NULL
 * argument, a scope or non-call event), TT_ENOTFOUND (the module has no
 * DWARF info or does not describe this address: the first time per module
 * this adds a notice "prog: no debug info; values not compared", or
 * "prog: fn: no debug info (compiled without -g?); values of such
 * functions not compared"), TT_ENOMEM. DWARF 4 and 5 from gcc and clang,
 * with or without .debug_aranges, split DWARF (.dwo) included. */
int ttf_sym_signature(ttf_sym *s, const ttf_event *ev,
                      const ttf_signature **out);

/* The raw return value of an EXIT event ev of a function of signature sig:
 * 1 with *raw = xmm0 (ev->retxmm) when sig->ret_xmm, else rax
 * (ev->retval); 0 when ev has no values, or the result is a float or
 * double the trace did not record (before format 1.5) or a long double
 * (*raw = 0). */
int ttf_value_ret(const ttf_signature *sig, const ttf_event *ev, uint64_t *raw);

/* 1 if values of type ty are compared between runs (integers, enums, bools,
 * pointers as NULL / non-NULL, float and double by their bits), 0 if not
 * (void, long double, complex, struct, unknown). */
int ttf_value_comparable(const ttf_vtype *ty);

/* The comparable form of a raw register holding a value of type ty:
 * integers and enums cut to their size (sign-extended if signed), bools
 * 0 / 1, pointers 0 (NULL) / 1 (non-NULL). Raw unchanged for other types. */
uint64_t ttf_value_norm(uint64_t raw, const ttf_vtype *ty);

/* Negative error codes returned as an unsigned 64-bit type (size_t), as
 * zstd's: values within TTF_ERRCODE_MAX of 2^64 have a signed form. */
#define TTF_ERRCODE_MAX 4096

/* 1 if raw, of type ty, is an unsigned 64-bit integer within
 * TTF_ERRCODE_MAX of 2^64 (18446744073709551596), with *code (if not
 * NULL) set to its signed form (-20); else 0. */
int ttf_value_errcode(uint64_t raw, const ttf_vtype *ty, int64_t *code);

/* A raw register as text for type ty (NULL ty = unknown type): "-22",
 * "4294967295", "true", "NULL", "0x7ffd5a10", "'A' (65)" for chars,
 * "18446744073709551596 (-20)" for ttf_value_errcode's values; an enum
 * by name with its number, "RED (1)" (since 2.5), a flags-like enum's
 * value that is no enumerator as "READ|EXEC (5)" when every set bit is
 * a one-bit enumerator, else the number alone; a
 * register of unknown type prints in decimal when small, else hex. Like
 * snprintf: writes at most len bytes with the NUL, returns the length it
 * wanted. */
int ttf_value_format(char *buf, size_t len, uint64_t raw, const ttf_vtype *ty);

/* Parameter p of an ENTER event ev as text: ttf_value_format of its
 * register; a struct or union passed in registers by its recorded
 * eightbytes, field by field ("{x=1.5, y=2}") when ttf_vtype fields says
 * what they hold, else as raw eightbytes ("{0x1, 0x4002}"); "(in memory)"
 * for one passed in memory (ttf_param mem), "?" for another that was not
 * recorded (unplaceable, an SSE eightbyte in a trace without SSE
 * registers). A char * or std::string whose first bytes were recorded
 * (format 1.6) shows them (ttf_string_format: "\"cc\"", "(unreadable)");
 * a NULL one stays NULL. Like snprintf. */
int ttf_param_format(char *buf, size_t len, const ttf_param *p, const ttf_event *ev);

/* The result of an EXIT event ev of a function of signature sig as text:
 * a struct in rax and/or xmm0 by its fields (ttf_signature ret_eb), one
 * in registers the trace does not record "(rdx or xmm1: not recorded)",
 * one larger than 16 bytes "(in memory)", else
 * ttf_value_format of ttf_value_ret's register; "?" when not recorded.
 * Like snprintf. */
int ttf_ret_format(char *buf, size_t len, const ttf_signature *sig, const ttf_event *ev);

/* ---- values mode's registers per function (libttfmt 2.10) ----------------- */

/* What capture needs to know of one function before its calls: which
 * integer argument registers hold strings (their first bytes are worth
 * recording) and whether it uses the SSE registers at all. */
typedef struct ttf_vt_entry {
    uint64_t addr;              /* its entry: a link-time address of the file */
    uint8_t cstr;               /* bit k: integer argument register k (rdi..r9)
                                   holds a pointer to const char (signed or
                                   unsigned), or a plain char * of a function
                                   that writes no memory but its own frame
                                   (libttfmt 2.17; another plain char *
                                   may be an output buffer, whose bytes
                                   before the call mean nothing: not listed) */
    uint8_t sstr;               /* bit k: it holds a std::string's address (a
                                   reference, a pointer to const, or one
                                   passed by value: by invisible reference;
                                   not a pointer to a non-const one, which
                                   may point to storage not yet constructed,
                                   libttfmt 2.16.1) */
    uint8_t flags;              /* TTF_VT_SSE */
} ttf_vt_entry;

#define TTF_VT_SSE 0x1          /* takes or returns a value in SSE registers,
                                   or is variadic */

/* The functions of the ELF file at path that its DWARF describes (split
 * DWARF through its skeleton units), each placed by the x86-64 psABI as
 * ttf_sym_signature places them; only those with a string or SSE register
 * are listed. *out (free() it) holds *n entries sorted by addr. Errors:
 * TT_EIO (unreadable file), TT_ENOTFOUND (no DWARF), TT_ENOMEM. */
int ttf_value_table(const char *path, ttf_vt_entry **out, size_t *n);

/* ---- machine code (two builds compared; format/code.c) ------------------- */

/* One function of a module's symbol table with its machine code. */
typedef struct ttf_code_func {
    const char *name;           /* as ttf_sym_name shows it (C++ demangled
                                   unless ttf_sym_set_demangle is off) */
    const char *symbol;         /* the symbol as stored ("_ZN3foo3barEv") */
    uint64_t addr;              /* link-time address (the file's own, no
                                   load bias: add ttf_code_info.bias) */
    uint64_t size;              /* bytes, as the symbol says (> 0) */
    const uint8_t *code;        /* its size bytes in the file; NULL when the
                                   file holds no code for it (a .debug file
                                   with the code stripped) */
} ttf_code_func;

/* The functions of one module's file. */
typedef struct ttf_code_info {
    const char *file;           /* the file read: the recorded path, or the
                                   copy found by build-id (ttf_sym_search) */
    uint64_t bias;              /* traced address = link-time address + bias */
    int machine;                /* the ELF e_machine (62: EM_X86_64) */
    int position_dependent;     /* 1: an ET_EXEC file (non-PIE): code holds
                                   absolute link-time addresses as immediates
                                   and displacements */
    int instrumented;           /* 1: it calls the -finstrument-functions or
                                   -pg hooks (__cyg_profile_func_enter,
                                   __fentry__, mcount) defined elsewhere, or
                                   is statically linked with them */
    const ttf_code_func *funcs; /* nfuncs, by address (aliases each listed) */
    size_t nfuncs;
} ttf_code_info;

/* The defined functions (STT_FUNC, STT_GNU_IFUNC, size > 0) of module
 * `module` (index for ttf_get_module) with their machine code, read from
 * the file ttf_sym_open found for it (build-id checked). Read once per
 * module, then cached (names demangled as set at that first call); *out
 * lives until ttf_sym_close. Errors: TT_EINVAL
 * (NULL argument, no such module), TT_ENOTFOUND (no file with the module's
 * build-id was found, or its path is empty), TT_ENOMEM. */
int ttf_sym_code(ttf_sym *s, size_t module, const ttf_code_info **out);

/* What a code reference names (ttf_code_ref.kind). */
enum ttf_ref_kind {
    TTF_REF_NONE = 0,   /* not an address of the file */
    TTF_REF_SYMBOL,     /* in a function or data symbol: name + offset */
    TTF_REF_IMPORT,     /* a PLT entry or GOT slot: the symbol it binds */
    TTF_REF_DATA        /* in a section but no symbol (string literals,
                           constants): the section, and for read-only
                           data the bytes there */
};

/* The target of a call, jump, rip-relative operand or absolute address. */
typedef struct ttf_code_ref {
    int kind;                   /* TTF_REF_* */
    const char *name;           /* SYMBOL: the symbol (raw, not demangled);
                                   IMPORT: the imported symbol ("printf");
                                   DATA: the section (".rodata"); else NULL */
    uint64_t offset;            /* SYMBOL: from the symbol's start; DATA:
                                   from the section's start; else 0 */
    const uint8_t *bytes;       /* DATA in a read-only section: the bytes at
                                   the address up to and with the first NUL,
                                   at most 64 (a string literal is all of
                                   it); else NULL */
    size_t nbytes;
    size_t navail;              /* DATA in a read-only section: bytes
                                   readable at `bytes` up to the section's
                                   end (jump tables are read past a NUL) */
} ttf_code_ref;

/* What link-time address addr of module `module` names: a PLT entry (its
 * `jmp *slot(%rip)` decoded) or a GOT slot gives the symbol its relocation
 * binds (a slot without one: the address stored in it, resolved in turn);
 * else the symbol holding addr; else the section. Pointers live until
 * ttf_sym_close. Errors: TT_EINVAL (NULL argument, no such module),
 * TT_ENOTFOUND (as ttf_sym_code), TT_ENOMEM. */
int ttf_sym_code_ref(ttf_sym *s, size_t module, uint64_t addr,
                     ttf_code_ref *out);

/* What a function's machine code reads (ttf_sym_code_reads). */
enum ttf_reads {
    TTF_READS_UNKNOWN = 0,  /* cannot tell: an indirect call or jump, a
                               system call, another module's code given an
                               address that may be shared, bytes not known */
    TTF_READS_OWN,          /* only its stack frame, thread-local storage,
                               read-only data and what its scalar
                               arguments compute (its callees in the file
                               too) */
    TTF_READS_SHARED        /* memory other threads can write: a writable
                               global, or through a pointer (a pointer
                               argument, one loaded from such memory, a
                               result) */
};

/* TTF_READS_* of the function starting at link-time address addr of
 * module `module` (its instructions followed through its branches and
 * into its calls of the same file; format/reads.c). ptr_args: bit k
 * (0..5 = rdi..r9) set when that argument register may hold a pointer at
 * entry (a pointer or aggregate parameter), TTF_READS_STACK_ARGS when a
 * parameter passed in memory (past the registers, a large struct) may
 * (TTF_READS_ANY_ARGS when the signature is not known); registers not set
 * are scalars or unused. 0 (*out UNKNOWN when
 * addr starts no function, or the file is not x86-64), or the errors of
 * ttf_sym_code. */
int ttf_sym_code_reads(ttf_sym *s, size_t module, uint64_t addr, unsigned ptr_args,
                       int *out);
#define TTF_READS_STACK_ARGS 0x40u
#define TTF_READS_ANY_ARGS 0x7fu

/* A writable global a function's code addresses (ttf_sym_code_globals). */
typedef struct ttf_code_global {
    uint64_t addr;          /* link-time address of the operand */
    unsigned access;        /* TTF_GLOBAL_READ | TTF_GLOBAL_WRITE */
} ttf_code_global;
#define TTF_GLOBAL_READ 1u  /* read (any form but a plain store) */
#define TTF_GLOBAL_WRITE 2u /* written (a plain store, a read-modify-write) */

/* The writable globals the function starting at link-time address addr
 * of module `module` reads or writes through operands that name them
 * (rip-relative, or absolute in a position-dependent file; not through a
 * pointer or an index, not thread-local storage), with its direct calls
 * into the same file, three deep (format/reads.c): the first cap into
 * out (one entry an address), *n the number found (more than cap: the
 * rest left off). *n 0 when addr starts no function, the file is not
 * x86-64 or its bytes are not all known. 0, or the errors of
 * ttf_sym_code (TT_EINVAL for a NULL argument). */
int ttf_sym_code_globals(ttf_sym *s, size_t module, uint64_t addr, ttf_code_global *out,
                         size_t cap, size_t *n);

/* A struct field a function's code reads or writes through a pointer
 * parameter (ttf_sym_code_fields). */
typedef struct ttf_code_field {
    const char *type;       /* what the parameter points to: "struct T" or
                               "union T" (typedefs and qualifiers seen
                               through; an unnamed struct by its typedef's
                               name); lives until ttf_sym_close */
    int64_t offset;         /* bytes from its start: the operand's
                               displacement */
    unsigned access;        /* TTF_GLOBAL_READ | TTF_GLOBAL_WRITE */
} ttf_code_field;

/* The struct fields the function starting at link-time address addr of
 * module `module` reads or writes through its pointer parameters
 * (format/reads.c): an operand disp(%reg) whose base register holds a
 * parameter's value as it came in (moved whole from register to
 * register, kept in a callee-saved register over calls; not reloaded
 * from memory, the stack included), typed by the parameter's DWARF type
 * (a pointer to a struct or union); its direct calls into the same file,
 * three deep, given such a value in an argument register, the same way
 * with their own parameters' types (a compiler's clone, .isra and the
 * like, is not typed). The first cap into out (one entry a type and
 * offset), *n the number found (more than cap: the rest left off). *n 0
 * when addr starts no function, the file is not x86-64, its bytes are not
 * all known or it has no DWARF. 0, or the errors of ttf_sym_code
 * (TT_EINVAL for a NULL argument, TT_ENOMEM). */
int ttf_sym_code_fields(ttf_sym *s, size_t module, uint64_t addr, ttf_code_field *out,
                        size_t cap, size_t *n);

/* Does the function starting at link-time address addr of module
 * `module` return, on some path, a C library comparison's result
 * unchanged (format/cmpret.c)? *out: TTF_CMPRET_SIGN when the result of
 * a call (or tail jump) through the PLT or the GOT to an imported routine
 * whose result the C standard or POSIX specifies by its sign only
 * (memcmp, bcmp, strcmp, strncmp, strcoll, strcasecmp, strncasecmp and
 * their _l forms, wcscmp, wcsncmp, wmemcmp, wcscoll, wcscasecmp,
 * wcsncasecmp, strverscmp) reaches a `ret` in %eax unmodified (moves to
 * other registers, compares, tests, jumps, a negation and a spill into the
 * frame keep it; any other write of it, or another call, does not), or its
 * direct callees of the same file do so, two deep; TTF_CMPRET_RELAY when
 * an indirect call's result does (a C++ virtual Compare: the code does
 * not say what it calls). 0 when neither, addr starts no function, the
 * file is not x86-64 or its bytes are not all known. 0, or the errors of
 * ttf_sym_code (TT_EINVAL for a NULL argument). */
int ttf_sym_code_cmpret(ttf_sym *s, size_t module, uint64_t addr, unsigned *out);
#define TTF_CMPRET_SIGN 1u
#define TTF_CMPRET_RELAY 2u

/* ---- call sites (format 1.2; format/site.c) -------------------------------- */

/* Where a recorded call site (ttf_event.call_site: a return address) is. */
typedef struct ttf_site_where {
    int module;                 /* index of the module holding it (ttf_get_module),
                                   -1 if none */
    uint64_t module_offset;     /* site - that module's base: the same in every
                                   run of one build */
    const char *caller;         /* the function holding the call, as
                                   ttf_sym_name shows it; NULL without a
                                   symbol table */
    uint64_t caller_addr;       /* its start, in the run's address space */
    uint64_t caller_offset;     /* site - caller_addr ("from main+0x1a") */
    const uint8_t *caller_code; /* its machine code (caller_size bytes, as
                                   ttf_sym_code reads it), NULL if unknown */
    uint64_t caller_size;
    const char *file;           /* the call's source file, NULL without
                                   debug info */
    int line;                   /* the call's line (of site - 1), 0 if unknown */
    int caller_line;            /* the caller's first line (of its entry), 0 if
                                   unknown or in another file: line -
                                   caller_line survives code moved elsewhere */
} ttf_site_where;

/* Fill *out for call site `site` of trace t (t must be the trace s was
 * opened on). Strings live until ttf_sym_close. 0, even when only the
 * module is known (caller NULL, line 0); TT_ENOTFOUND (site 0 or in no
 * module: module -1), TT_EINVAL (NULL argument), TT_ENOMEM. */
int ttf_sym_site(ttf_sym *s, const ttf_trace *t, uint64_t site,
                 ttf_site_where *out);

/* Notices ("build-id mismatch for ./prog, using offsets"), once each. */
size_t ttf_sym_notice_count(const ttf_sym *s);
const char *ttf_sym_get_notice(const ttf_sym *s, size_t i);

#ifdef __cplusplus
}
#endif

#endif
