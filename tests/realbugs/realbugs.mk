# tests/realbugs/realbugs.mk - `make realbugs`: the real-bug accuracy
# benchmark (tests/realbugs/README.md). Not part of `make test`: it fetches
# Debian source packages and builds them (cached under
# $HOME/.cache/tt-realbugs). CASES='jq-*' runs a subset, RB_MODES='plain'
# one mode.
.PHONY: realbugs
realbugs: all
	@CASES="$(CASES)" sh tests/realbugs/run.sh $(B)
