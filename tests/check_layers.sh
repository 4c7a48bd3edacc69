#!/bin/sh
# check_layers.sh - prove the layer rule the Makefile enforces (make
# check-layers, run by make test). For each layer, a probe compiled with
# exactly that layer's include paths must compile when it includes the
# headers of its own layer and those below, and must FAIL when it includes
# a header of a layer above it or beside it. No source file may reach
# around the include paths with a relative "../" include.
# Environment: CC, B (build dir), INC_capture, INC_format, INC_diff,
# INC_report, INC_cmd (the Makefile's include paths).
set -u
B=${B:-build}
CC=${CC:-cc}
P=$B/probe
fail=0
mkdir -p "$P" || exit 1

# probe LAYER HEADER WANT: WANT is ok (must compile) or fail (must not)
probe() {
    eval "inc=\$INC_$1"
    dir=$P/$1
    mkdir -p "$dir"
    printf '#include "%s"\nint layer_probe;\n' "$2" > "$dir/probe.c"
    # shellcheck disable=SC2086
    if $CC -std=gnu11 -D_GNU_SOURCE -fsyntax-only $inc "$dir/probe.c" \
        > "$dir/log" 2>&1; then got=ok; else got=fail; fi
    if [ "$got" != "$3" ]; then
        echo "check-layers: $1/ including $2: $got, want $3"
        cat "$dir/log"
        fail=1
    fi
}

probe capture ttcap.h ok
probe capture ttf_wire.h ok
for h in ttfmt.h ttf_int.h ttdiff.h ttreport.h cli.h; do probe capture $h fail; done
probe format ttfmt.h ok
probe format ttf_wire.h ok
for h in ttcap.h cap_int.h ttdiff.h prepare.h resolve.h ttreport.h cli.h; do probe format $h fail; done
probe diff ttdiff.h ok
probe diff ttfmt.h ok
for h in ttcap.h cap_int.h ttreport.h ttr_int.h cli.h; do probe diff $h fail; done
probe report ttreport.h ok
probe report ttdiff.h ok
for h in ttcap.h cap_int.h cli.h; do probe report $h fail; done
# the commands (report/cmd/) see the public headers as installed and their
# own folder, none of the libraries' internals
for h in cli.h ttreport.h ttdiff.h ttprof.h ttfmt.h ttcap.h; do probe cmd $h ok; done
for h in ttr_int.h ttf_util.h ttf_int.h ttf_wire.h prepare.h state.h resolve.h cap_int.h; do probe cmd $h fail; done

# no relative includes anywhere in the sources
rel=$(grep -rn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./' \
      capture format diff report tests fixtures 2>/dev/null)
if [ -n "$rel" ]; then
    echo "check-layers: relative includes reach around the layers:"
    echo "$rel"
    fail=1
fi
[ "$fail" = 0 ] && echo "check-layers: ok"
exit "$fail"
