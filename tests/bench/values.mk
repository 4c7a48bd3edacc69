# values.mk - build rules of the values-mode benchmark (bench_values.sh):
# cap_vwork.c built plain, with -finstrument-functions (empty hooks;
# libttcap), with -pg -mfentry (empty __fentry__; return hook only;
# libttcap values mode; the same with the string table ttcc --values adds,
# cap_vwork.vstr; bare, for uftrace). -pg objects are linked without -pg. x86-64 only.

BV_PG = -pg -mfentry
BV_PROGS := $(BCAP)/cap_vwork.plain $(BCAP)/cap_vwork.empty $(BCAP)/cap_vwork.inst \
            $(BCAP)/cap_vwork.pgempty $(BCAP)/cap_vwork.pgret $(BCAP)/cap_vwork.values \
            $(BCAP)/cap_vwork.pg $(BCAP)/cap_vwork.vstr

.PHONY: bench-values-progs
bench-values-progs: $(BV_PROGS)
ifeq ($(shell uname -m),x86_64)
bench: bench-values-progs
endif

$(BCAP)/cap_vwork.plain: tests/bench/cap_vwork.c
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -o $@ $<

$(BCAP)/cap_vwork.empty: tests/bench/cap_vwork.c $(BCAP)/empty_hooks.o
	$(CC) $(BCAP_CFLAGS) $(BCAP_INST) -o $@ $^

$(BCAP)/cap_vwork.inst: tests/bench/cap_vwork.c $(B)/libttcap.so
	$(CC) $(BCAP_CFLAGS) $(BCAP_INST) -fno-plt -o $@ $< $(BCAP_TTCAP)

$(BCAP)/cap_vwork.pg.o: tests/bench/cap_vwork.c
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) $(BV_PG) -c -o $@ $<

$(BCAP)/cap_vwork.pgempty: $(BCAP)/cap_vwork.pg.o tests/bench/empty_fentry.S
	$(CC) $(BCAP_CFLAGS) -o $@ $^

$(BCAP)/cap_vwork.pgret: $(BCAP)/cap_vwork.pg.o tests/bench/rethook_fentry.S
	$(CC) $(BCAP_CFLAGS) -o $@ $^

$(BCAP)/cap_vwork.values: $(BCAP)/cap_vwork.pg.o $(B)/libttcap.so
	$(CC) $(BCAP_CFLAGS) -o $@ $< $(BCAP_TTCAP)

# the values binary with its string table, as ttcc --values stores it
$(BCAP)/cap_vwork.vstr: $(BCAP)/cap_vwork.values $(B)/ttdump
	$(B)/ttdump --value-table $@.vt $<
	cp $< $@
	objcopy --add-section .ttcap.vt=$@.vt $@
	rm -f $@.vt

# __fentry__ left to glibc, for uftrace's libmcount to take over
$(BCAP)/cap_vwork.pg: $(BCAP)/cap_vwork.pg.o
	$(CC) $(BCAP_CFLAGS) -o $@ $<
