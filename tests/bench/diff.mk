# diff.mk - build rules of the ttdiff benchmark (tests/bench/bench_diff.sh):
# gen_trace writes synthetic good/bad trace pairs with libttfmt's writer.
# Output goes to $(B)/bench/; `make bench` builds it.

.PHONY: bench-diff-progs

bench-diff-progs: $(B)/bench/gen_trace

bench: bench-diff-progs

$(B)/bench/gen_trace: tests/bench/gen_trace.c $(LIBFMT) format/ttfmt.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -o $@ $< $(LIBFMT) $(SYSLIBS)
