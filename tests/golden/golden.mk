# tests/golden/golden.mk - ttdiff's golden reports (tests/golden/README.md).
# `make golden-check` records every case and compares its text, JSON and
# HTML reports with tests/golden/<case>/expected.* (make test runs the same
# check as tests/e2e/golden.sh); `make golden-update` rewrites them from this
# build for review with git diff. GOLDEN_CASES='ex_parser ex_crash' for a
# subset. (`make golden` is another thing: fixtures/traces.mk.)
# `make same-reports OLD=path/to/ttdiff NEW=path/to/ttdiff [DIRS=...]`: are
# two ttdiff builds' reports byte-identical (issue 35; same_reports.sh)?
.PHONY: golden-check golden-update same-reports

golden-check: all fixtures
	@python3 tests/golden/golden.py check $(B) $(GOLDEN_CASES)

golden-update: all fixtures
	@python3 tests/golden/golden.py update $(B) $(GOLDEN_CASES)
	@git status --short -- tests/golden

same-reports: all fixtures
	@B=$(B) sh tests/golden/same_reports.sh $(or $(OLD),$(error make same-reports needs OLD=path/to/the/old/ttdiff)) \
	  $(or $(NEW),$(B)/ttdiff) $(DIRS)
