#!/bin/sh
# sh tests/realbugs/split-add.sh NAME... : add new cases to SPLIT by the
# fixed rule (sha256 of the name, first hex digit 0-7 dev, else heldout);
# a case already listed keeps its half
S=$(dirname "$0")/SPLIT
for n in "$@"; do
    grep -q "^$n " "$S" && { grep "^$n " "$S"; continue; }
    h=$(printf '%s' "$n" | sha256sum | cut -c1)
    case $h in [0-7]) s=dev ;; *) s=heldout ;; esac
    echo "$n $s" | tee -a "$S"
done
