#!/bin/sh
# check_special.sh - reliability check (l): special files at the paths a
# trace records for its modules (issue 24, defect 1). Traces from others
# name any path: a FIFO (open() blocked ttdump and ttdiff forever), a
# folder, a character device, a link to a FIFO, a file planted in a folder
# anyone can write. ttdump and ttdiff must finish within 10 s, exit 0/1,
# and say per module why its names are offsets.
B=$(cd "$1" && pwd)
d=$(mktemp -d "${TMPDIR:-/tmp}/ttspec.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
mkfifo "$d/fifo.so"; mkdir "$d/dir.so"; ln -s "$d/fifo.so" "$d/link.so"
mkdir -m 777 "$d/shared"; chmod 777 "$d/shared"; cp "$B/rel/rel_gen" "$d/shared/planted.so"
runs=0; bad=0
for m in "$d/fifo.so" "$d/dir.so" /dev/zero /dev/null "$d/link.so" "$d/shared/planted.so"; do
    "$B/rel/rel_gen" module "$d/m.trc" "$m" || exit 2
    for cmd in "$B/ttdump $d/m.trc" "$B/ttdump --stats $d/m.trc" "$B/ttdiff $d/m.trc $d/m.trc"; do
        timeout 10 $cmd > "$d/out" 2>&1; rc=$?; runs=$((runs + 1))
        if [ $rc -gt 1 ]; then
            bad=$((bad + 1)); echo "$m: $cmd: exit $rc"
        elif ! grep -q "not a regular file\|which others can write\|build-id differs\|cannot read" "$d/out" &&
             [ "${cmd#*--stats}" = "$cmd" ]; then
            bad=$((bad + 1)); echo "$m: $cmd: no notice"; head -5 "$d/out"
        fi
    done
done
ok=ok; [ $bad = 0 ] || ok=FAIL
echo "RESULT l. special files at recorded module paths (FIFO, folder, devices, link to FIFO, ELF planted in a 0777 folder)|$runs runs of ttdump/ttdiff: $bad hung, failed or silent|$ok"
[ $ok = ok ]
