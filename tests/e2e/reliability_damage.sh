#!/bin/sh
# reliability_damage.sh - the short reliability suite's check (a), damaged
# traces through the reader, the engine, the renderers and the tools
# (ASan); a part of reliability_short.sh, run beside it. $1 = build dir.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
sh tests/reliability/run.sh "$B" --short check_damage.sh
