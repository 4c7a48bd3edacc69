#!/bin/sh
# check_setuid.sh - reliability check (g): the environment through setuid
# and exec. A setuid-root traced program run by nobody with TTCAP_* set
# traces nothing and creates nothing; one that becomes root for good and
# execs another traced program hands it no TTCAP_* (the child is no longer
# in secure mode and would create the file the caller named, as root);
# trace names holding a link, FIFO, device or folder are refused. The
# work is tests/e2e/capture_setuid.sh (needs root and setpriv, else the
# setuid part is skipped and said so).
B=$(cd "$1" && pwd)
out=$(sh "$(dirname "$0")/../e2e/capture_setuid.sh" "$B" 2>&1); rc=$?
fails=$(printf '%s\n' "$out" | grep -c '^FAIL')
if printf '%s\n' "$out" | grep -q SKIP; then res=skip; fig="setuid part skipped (needs root and setpriv)"
elif [ $rc = 0 ]; then res=ok; fig="setuid-root run as nobody: untraced, nothing created; setuid(0)+exec: no TTCAP_* in the child, nothing created (shared and static libttcap)"
else res=FAIL; fig="$fails failures: $(printf '%s\n' "$out" | grep '^FAIL' | head -3 | cut -c1-120 | tr '\n' ' ')"; fi
echo "RESULT g. environment through setuid + exec|$fig|$res"
[ $res != FAIL ]
