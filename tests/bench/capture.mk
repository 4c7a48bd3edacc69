# capture.mk - build rules of the capture benchmark (tests/bench/bench_capture.sh).
# One workload source, built as: plain, -finstrument-functions with empty hooks,
# with glibc's stub hooks (what uftrace / LTTng preload over), and with libttcap
# shared and static. Outputs go to $(B)/bench/; `make bench` builds them.

BCAP := $(B)/bench
BCAP_CFLAGS = -std=gnu11 -g -O2 $(WARN) -pthread -D_GNU_SOURCE
BCAP_INST = -finstrument-functions
BCAP_TTCAP = -L$(B) -lttcap -Wl,-rpath,'$$ORIGIN/..' -lpthread -ldl

BCAP_BASE := $(BCAP)/cap_work.plain $(BCAP)/cap_work.empty \
             $(BCAP)/cap_work.inst $(BCAP)/cap_trcstat $(BCAP)/clock_cost \
             $(BCAP)/sparsify
BCAP_TT := $(BCAP)/cap_work.ttcap $(BCAP)/cap_work.ttcap-static \
           $(BCAP)/cap_work.ttcap-noplt \
           $(BCAP)/cap_log.ttcap $(BCAP)/cap_log.plain

.PHONY: bench-capture-base bench-capture-progs

# programs that need no libttcap
bench-capture-base: $(BCAP_BASE)

# everything, the libttcap builds only once capture/ has sources and a header
bench-capture-progs: bench-capture-base \
    $(if $(and $(wildcard capture/*.c),$(wildcard capture/ttcap.h)),$(BCAP_TT))

bench: bench-capture-progs

$(BCAP)/cap_work.plain: tests/bench/cap_work.c
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -o $@ $<

$(BCAP)/empty_hooks.o: tests/bench/empty_hooks.c
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -fno-instrument-functions -c -o $@ $<

$(BCAP)/cap_work.empty: tests/bench/cap_work.c $(BCAP)/empty_hooks.o
	$(CC) $(BCAP_CFLAGS) $(BCAP_INST) -o $@ $^

# hooks left undefined: they bind to glibc's empty stubs, through the PLT,
# so LD_PRELOAD'ed tracers (uftrace's libmcount, LTTng) can take them over
$(BCAP)/cap_work.inst: tests/bench/cap_work.c
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) $(BCAP_INST) -o $@ $<

$(BCAP)/cap_work.ttcap: tests/bench/cap_work.c $(B)/libttcap.so
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) $(BCAP_INST) -o $@ $< $(BCAP_TTCAP)

# -fno-plt: the hooks are called through the GOT, without the PLT jump
$(BCAP)/cap_work.ttcap-noplt: tests/bench/cap_work.c $(B)/libttcap.so
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) $(BCAP_INST) -fno-plt -o $@ $< $(BCAP_TTCAP)

$(BCAP)/cap_work.ttcap-static: tests/bench/cap_work.c $(B)/libttcap.a
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) $(BCAP_INST) -o $@ $< $(B)/libttcap.a -lpthread -ldl

$(BCAP)/cap_log.ttcap: tests/bench/cap_log.c capture/ttcap.h $(B)/libttcap.so
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -Icapture -o $@ $< $(BCAP_TTCAP)

# the same loop with TT_LOG compiled out: the cost of the loop itself
$(BCAP)/cap_log.plain: tests/bench/cap_log.c capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -Icapture -DCAP_NO_LOG -o $@ $<

$(BCAP)/cap_trcstat: tests/bench/cap_trcstat.c format/ttf_wire.h
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -Iformat -o $@ $<

# the floor: one clock read
$(BCAP)/clock_cost: tests/bench/clock_cost.c
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -o $@ $<

# the sparse clock's estimate measured on one run (bench_clock.sh)
$(BCAP)/sparsify: tests/bench/sparsify.c format/ttf_wire.h
	@mkdir -p $(dir $@)
	$(CC) $(BCAP_CFLAGS) -Iformat -o $@ $<

# fewer clock reads simulated on one every-event run (clocksim.c's header;
# not part of make bench: `make B=build build/bench/clocksim`)
$(BCAP)/clocksim: tests/bench/clocksim.c $(LIBFMT) format/ttfmt.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) -o $@ $< $(LIBFMT) $(FMT_LIBS)
