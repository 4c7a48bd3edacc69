#!/bin/sh
# check_man.sh B MANDIR - the manual pages say what the commands do: for
# ttdiff ttdump ttrec ttcc, every option in `B/CMD --help` is in CMD.1's
# OPTIONS section and every option there is in --help; libttcap.3 names
# every TTCAP variable capture/*.c reads or sets (tests-only ones aside;
# the page is their one documentation), every public function and every
# TT_ macro of capture/ttcap.h, and nothing else under
# ENVIRONMENT or FUNCTIONS; each page carries the toolkit's version and
# formats without a groff warning. One line per mismatch; exit 1 if any.
B=${1:-build}
M=${2:-report/cmd/man}
bad=0
say() { echo "check-man: $*"; bad=1; }

# the option names of a help text's option lines (their left column)
help_opts() {
    grep -E '^ {1,6}-' | sed -E 's/^ +//; s/  .*//' |
        grep -oE '(^|[ ,/])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,/]//' | sort -u
}
# the option names of the .TP items of a page's section $2
man_opts() {
    sed -n "/^\.SH $2\$/,/^\.SH /p" "$1" | sed 's/\\-/-/g; s/\\f[BIRP]//g' |
        awk 'p { print; p = 0 } /^\.TP/ { p = 1 }' |
        grep -oE '(^|[ ,/"])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,/"]//' | sort -u
}
# compare two sorted lists: $1 name, $2 what, $3 file of A, $4 file of B
differ() {
    comm -23 "$3" "$4" | while read -r o; do say "$1: $o in $2 but not in the manual page"; done
    comm -13 "$3" "$4" | while read -r o; do say "$1: $o in the manual page but not in $2"; done
    cmp -s "$3" "$4" || bad=1
}

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ver=$("$B/ttcc" --version | sed -n 's/^ttcc \([^ ]*\).*/\1/p')
for cmd in ttdiff ttdump ttrec ttcc; do
    page=$M/$cmd.1
    [ -f "$page" ] || { say "no $page"; continue; }
    "$B/$cmd" --help | help_opts > "$T/$cmd.help"
    man_opts "$page" OPTIONS > "$T/$cmd.man"
    [ -s "$T/$cmd.help" ] || say "$cmd: no options found in --help"
    differ "$cmd" "--help" "$T/$cmd.help" "$T/$cmd.man"
done

page=$M/libttcap.3
H=capture/ttcap.h
# the variables capture/ reads or sets (the code, not a list kept beside it)
grep -ohE '"TTCAP(_[A-Z_]+)?"' capture/*.c | tr -d '"' | grep -v '^TTCAP_TEST_' |
    sort -u > "$T/env.h"
[ -s "$T/env.h" ] || say "no TTCAP variable found in capture/*.c"
man_opts "$page" ENVIRONMENT > /dev/null
sed -n '/^\.SH ENVIRONMENT$/,/^\.SH /p' "$page" | awk 'p { print; p = 0 } /^\.TP/ { p = 1 }' |
    grep -oE 'TTCAP[A-Z_]*' | sort -u > "$T/env.man"
differ libttcap "capture/'s getenv calls" "$T/env.h" "$T/env.man"
grep -oE '^[a-z][a-z ]*[ *](ttcap_[a-z_]+)\(' "$H" | grep -oE 'ttcap_[a-z_]+' |
    grep -vE '^ttcap_(emit|scope_enter|scope_exit)$' | sort -u > "$T/fn.h"
grep -qE '^extern int ttcap_threshold;' "$H" && echo ttcap_threshold >> "$T/fn.h"
sort -u -o "$T/fn.h" "$T/fn.h"
sed -n '/^\.SH FUNCTIONS$/,/^\.SH /p' "$page" | awk 'p { print; p = 0 } /^\.TP/ { p = 1 }' |
    grep -oE 'ttcap_[a-z_]+' | sort -u > "$T/fn.man"
differ libttcap "ttcap.h's functions" "$T/fn.h" "$T/fn.man"
for m in $(grep -oE '^#define (TT_[A-Z]+|TTCAP_ALLOW_SECURE_EXEC)\(' "$H" | sed 's/#define //; s/($//' | sort -u); do
    grep -q "$m(" "$page" || say "libttcap: $m not in the manual page"
done

for page in "$M"/*.[13]; do
    grep -q "^\.TH .* \"tt $ver\"" "$page" || say "$page: .TH does not name tt $ver"
    command -v groff > /dev/null || continue
    w=$(groff -man -ww -z "$page" 2>&1) || true
    [ -z "$w" ] || say "$page: groff: $w"
done
[ "$bad" = 0 ] && echo "check-man: 5 pages agree with --help and ttcap.h"
exit "$bad"
