#!/bin/sh
# mkschema.sh MIN : write schema.json, a table schema of 40 int64 columns
# with their limits, as a schema tool would; column 25 ("ts_delta") has
# no lower bound and carries MIN (INT64_MIN, or one above it) as its "min"
min=$1
{
    echo '{"table": "events", "columns": ['
    i=0
    while [ $i -lt 40 ]; do
        if [ $i -eq 25 ]; then
            printf '  {"name": "ts_delta", "type": "int64", "min": %s, "max": 9223372036854775807}' "$min"
        else
            printf '  {"name": "c%02d", "type": "int64", "min": %d, "max": %d}' $i $((-1000 * i)) $((1000 * i + 999))
        fi
        i=$((i + 1))
        [ $i -lt 40 ] && echo ',' || echo
    done
    echo ']}'
} >schema.json
