#!/bin/sh
# check_outputs.sh - reliability check (m): reports written into shared
# folders (issue 24, defect 3): tests/e2e/report_outputs.sh (a planted
# link at ttdiff -o's name and at ttrec's report, an existing report
# without --force, modes 0600, ttrec -f -o into someone else's folder).
B=$1
out=$(sh tests/e2e/report_outputs.sh "$B" 2>&1); rc=$?
ok=ok; [ $rc = 0 ] || { ok=FAIL; echo "$out" | tail -5; }
echo "RESULT m. outputs into shared folders: planted links, existing files, modes, foreign folders|tests/e2e/report_outputs.sh: $(echo "$out" | tail -1)|$ok"
[ $ok = ok ]
