#!/bin/sh
# ttdump on a trace written just now by the format writer: a small program
# (compiled here against $B/libttfmt.a) records its own functions, two
# threads, messages, a mark, a crash and lost data, with itself as module 0.
# Checks the sections, symbol names, --lines, --merged, --thread,
# --function, --stats, --no-header and the exit status.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
B=$(cd "$B" && pwd)
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "no '$1' in $2"; }; }
hasnt() { if grep -q -e "$1" "$2"; then cat "$2"; fail "unexpected '$1' in $2"; fi; }

cat > "$T/gen.c" <<'EOF'
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ttf_wire.h"
#include "ttfmt.h"

__attribute__((noinline)) int gen_outer(int x);
__attribute__((noinline)) int gen_inner(int x);
int gen_inner(int x) { __asm__ volatile("" ::: "memory"); return x + 1; }
int gen_outer(int x) { return gen_inner(x) * 2; }

static uint64_t base, size;
static uint8_t bid[64];
static size_t bid_len;

static void notes(struct dl_phdr_info *in, const ElfW(Phdr) *ph)
{
    const uint8_t *p = (const uint8_t *)(in->dlpi_addr + ph->p_vaddr);
    const uint8_t *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
        const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
        const uint8_t *d = p + sizeof *nh + ((nh->n_namesz + 3) & ~3u);
        if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz <= 64) {
            memcpy(bid, d, nh->n_descsz);
            bid_len = nh->n_descsz;
        }
        p = d + ((nh->n_descsz + 3) & ~3u);
    }
}

static int first(struct dl_phdr_info *in, size_t sz, void *arg)
{
    (void)sz; (void)arg;
    base = in->dlpi_addr;
    for (int i = 0; i < in->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &in->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > size)
            size = ph->p_vaddr + ph->p_memsz;
        if (ph->p_type == PT_NOTE)
            notes(in, ph);
    }
    return 1;
}

#define CHECK(x) do { if ((x) != 0) { fprintf(stderr, "gen: %s failed\n", #x); return 1; } } while (0)

int main(int argc, char **argv)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || argc < 2)
        return 1;
    exe[n] = 0;
    dl_iterate_phdr(first, NULL);
    int abandon = argc > 2 && strcmp(argv[2], "abandon") == 0;
    if (argc > 2 && !abandon) /* "wrongid": pretend another build */
        bid[0] ^= 0xff;
    uint64_t fo = (uint64_t)(uintptr_t)gen_outer;
    uint64_t fi = (uint64_t)(uintptr_t)gen_inner;
    const char *av[] = {exe, "two words", "x"};
    ttf_writer_opts o = {.timed = 1, .start_realtime_ns = 1700000000123456789ull};
    ttf_writer *w;
    uint8_t args[64], *p = args;
    uint8_t types[] = {TTF_ARG_I64, TTF_ARG_STR};
    ttf_callsite log = {.id = 1, .kind = TTF_SITE_LOG, .level = 1, .line = 77,
        .fmt = "%d items from %s", .file = "gen.c", .func = "gen_inner",
        .nargs = 2, .types = types};
    ttf_callsite mark = {.id = 2, .kind = TTF_SITE_MARK, .line = 88,
        .fmt = "checkpoint-A", .file = "gen.c", .func = "gen_outer"};

    CHECK(ttf_writer_open(argv[1], &o, &w));
    CHECK(ttf_write_process(w, 4242, 1, exe, 3, av, ""));
    CHECK(ttf_write_thread_start(w, 0, 1000, 4242, "main"));
    CHECK(ttf_write_module(w, 0, 1000, base, size, bid, bid_len, exe));
    CHECK(ttf_write_callsite(w, 0, &log));
    CHECK(ttf_write_callsite(w, 0, &mark));
    CHECK(ttf_write_enter(w, 0, 2000, fo));
    CHECK(ttf_write_mark(w, 0, 2500, 2));
    CHECK(ttf_write_enter(w, 0, 3000, fi));
    p = ttf_put_svar(p, 42);
    p = ttf_put_str(p, "queue", 5);
    CHECK(ttf_write_message(w, 0, 3500, 1, args, (size_t)(p - args)));
    CHECK(ttf_write_exit(w, 0, 4000, fi));
    CHECK(ttf_write_exit(w, 0, 5000, fo));
    CHECK(ttf_write_thread_start(w, 1, 6000, 4243, "worker-1"));
    CHECK(ttf_write_enter(w, 1, 6500, fi));
    CHECK(ttf_write_lost(w, 1, 6600, 17, 300));
    CHECK(ttf_write_enter(w, 1, 7000, 0x10));
    CHECK(ttf_write_crash(w, 1, 8000, 11, 1, 0xdead));
    CHECK(ttf_write_enter(w, 0, 9000, fo));
    CHECK(ttf_write_exit(w, 0, 9500, fo));
    if (abandon)
        CHECK(ttf_writer_abandon(w));
    else
        CHECK(ttf_writer_close(w, 3));
    return gen_outer(0) == 2 ? 0 : 1;
}
EOF
${CC:-cc} -std=gnu11 -g -O1 ${SAN:-} -D_GNU_SOURCE -Iformat -o "$T/gen" "$T/gen.c" \
    "$B/libttfmt.a" -ldw -lelf -lpcre2-8 -lxxhash -lpthread -ldl -lm \
    || fail "cannot build the trace generator"
"$T/gen" "$T/a.trc" || fail "generator failed"

# full dump
"$B/ttdump" "$T/a.trc" > "$T/out" 2> "$T/err" || fail "ttdump exit $?"
[ -s "$T/err" ] && { cat "$T/err"; fail "unexpected stderr"; }
has '^  magic: *ok$' "$T/out"
has '^  version: *1\.0$' "$T/out"
has '^  required features: *0x1 (events-v1)$' "$T/out"
has '^  flags: *0x1 (closed)$' "$T/out"
has '^  exit status: *3$' "$T/out"
has '^  start time: *2023-11-14T22:13:20\.123456789Z$' "$T/out"
has '^  pid: *4242$' "$T/out"
has '^  command line: .*"two words" "x"$' "$T/out"
has '^  crash: *SIGSEGV (code 1) fault address 0xdead in thread 1' "$T/out"
has '^modules: 1$' "$T/out"
has "^  \[0\] base 0x[0-9a-f]* size 0x[0-9a-f]* build-id [0-9a-f]\{8,\} .*/gen$" "$T/out"
has '^threads: 2$' "$T/out"
has '^  \[1\] tid 4243 "worker-1" ' "$T/out"
has '^thread 0 "main" (tid 4242):$' "$T/out"
has '^ *+1\.000us > gen_outer$' "$T/out"
has '^ *+2\.000us   > gen_inner$' "$T/out"
has '^ *+2\.500us     log: 42 items from queue$' "$T/out"
has '^ *+3\.000us   < gen_inner$' "$T/out"
has '^ *+1\.500us   mark: checkpoint-A$' "$T/out"
has '!! lost 17 events (300 bytes)' "$T/out"
has '> 0x10$' "$T/out"
has '!! crash: SIGSEGV (code 1) fault address 0xdead$' "$T/out"

# --lines: file:line of the generator's functions, site lines of messages
"$B/ttdump" --lines --no-header "$T/a.trc" > "$T/lines" || fail "--lines"
has '> gen_outer (.*gen\.c:[0-9][0-9]*)$' "$T/lines"
has 'log: 42 items from queue (gen\.c:77)$' "$T/lines"
hasnt '^header:' "$T/lines"

# --merged: time order, thread on each line
"$B/ttdump" --merged -n "$T/a.trc" > "$T/merged" || fail "--merged"
has '^ *+5\.500us \[1 worker-1\] > gen_inner$' "$T/merged"
grep -n 'gen_' "$T/merged" | tail -1 | grep -q '\[0 main\] < gen_outer' \
    || fail "merged stream not in time order"

# --thread by name and by index
"$B/ttdump" --thread 'work' -n "$T/a.trc" > "$T/th" || fail "--thread"
has '^thread 1 "worker-1"' "$T/th"
hasnt '^thread 0 ' "$T/th"
"$B/ttdump" -t 0 -n "$T/a.trc" > "$T/th0" || fail "-t 0"
has '^thread 0 "main"' "$T/th0"
hasnt '^thread 1 ' "$T/th0"

rc=0; "$B/ttdump" -t nosuch "$T/a.trc" > /dev/null 2> "$T/e" || rc=$?
[ "$rc" = 2 ] && grep -q "^ttdump: --thread 'nosuch': no such thread" "$T/e" \
    || fail "--thread with no match: exit $rc"
rc=0; "$B/ttdump" -t 7 "$T/a.trc" > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--thread 7 of 2: exit $rc"

# --color: escapes only when asked for (stdout is a file here: auto = off)
"$B/ttdump" -n --color always "$T/a.trc" | grep -q "$(printf '\033')\[32m> gen_outer" \
    || fail "--color always"
"$B/ttdump" -n "$T/a.trc" | grep -q "$(printf '\033')" && fail "--color auto on a file"

# --function: only gen_inner's events, indentation from its own frames
"$B/ttdump" --function '^gen_inner$' -n -t main "$T/a.trc" > "$T/fn" \
    || fail "--function"
has '^ *+2\.000us > gen_inner$' "$T/fn"
has '^ *+2\.500us   log: 42 items' "$T/fn"
has '^ *+3\.000us < gen_inner$' "$T/fn"
hasnt 'gen_outer' "$T/fn"
hasnt 'checkpoint' "$T/fn"

# --stats: counts, no events
"$B/ttdump" --stats -n "$T/a.trc" > "$T/st" || fail "--stats"
has '^  enter  *3 ' "$T/st"
has '^  enter  *2 ' "$T/st"
has '^  exit  *3 ' "$T/st"
has '^  crash  *1' "$T/st"
has '^total: [0-9]* events' "$T/st"
hasnt '> gen_' "$T/st"

# build-id mismatch: offsets and one notice on stderr
"$T/gen" "$T/b.trc" wrongid || fail "generator (wrongid) failed"
"$B/ttdump" -n "$T/b.trc" > "$T/bout" 2> "$T/berr" || fail "ttdump wrongid"
[ "$(wc -l < "$T/berr")" = 1 ] || { cat "$T/berr"; fail "want one notice"; }
has '^ttdump: .*/gen: build-id differs from the traced binary; names shown as offsets$' "$T/berr"
has '> gen+0x[0-9a-f]*$' "$T/bout"
hasnt 'gen_outer' "$T/bout"
# a writer that died: no end marker, the dump says what was recovered
"$T/gen" "$T/c.trc" abandon || fail "generator (abandon) failed"
"$B/ttdump" "$T/c.trc" > "$T/cout" 2>&1 || fail "ttdump abandoned: exit $?"
has '^  flags: *0x0 (none)$' "$T/cout"
has '^  exit status: *none (not closed)$' "$T/cout"
has '^  exit: *not closed cleanly: recovered [1-9][0-9]* events from 2 chunks$' "$T/cout"
has '!! crash: SIGSEGV' "$T/cout"
echo "ok"
