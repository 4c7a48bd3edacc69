# tests/realbugs/realbugs.mk - `make realbugs`: the real-bug accuracy
# benchmark (tests/realbugs/README.md). Not part of `make test`: it fetches
# Debian source packages and builds them (cached under
# $HOME/.cache/tt-realbugs). CASES='jq-*' runs a subset, RB_MODES='plain'
# one mode.
.PHONY: realbugs
realbugs: all
	@CASES="$(CASES)" RB_HALF="$(RB_HALF)" RB_REUSE="$(RB_REUSE)" sh tests/realbugs/run.sh $(B)

# `make threadsuite`: passing runs of zstd's threaded tests (Debian source
# package libzstd) diffed in 10 pairs with one baseline; prints "N of 10
# pairs exit 0" (tests/realbugs/README.md). TS_MODES='plain values'.
.PHONY: threadsuite
threadsuite: all
	@TS_MODES="$(TS_MODES)" sh tests/realbugs/threadsuite.sh $(B)

# `make goodgood`: identical runs of real programs from Debian packages
# (tests/realbugs/goodgood/*.sh) diffed in 10 pairs without a baseline;
# prints "N of 10 pairs exit 0" per program and mode (issue 31).
# GG='cmark uvcat' a subset, GG_MODES='plain' one mode.
.PHONY: goodgood
goodgood: all
	@GG="$(GG)" GG_MODES="$(GG_MODES)" sh tests/realbugs/goodgood.sh $(B)
