# profile.mk - build rules of the profile benchmark (bench_profile.sh): one
# workload built with -finstrument-functions against libttcap (for ttdump)
# and with -pg (for uftrace). Outputs go to $(B)/bench/; `make bench` builds them.

BPROF_CFLAGS = -std=gnu11 -g -O2 $(WARN) -Wno-missing-prototypes

.PHONY: bench-profile-progs

bench-profile-progs: $(B)/bench/prof_work.ttcap $(B)/bench/prof_work.pg

bench: bench-profile-progs

$(B)/bench/prof_work.ttcap: tests/bench/prof_work.c $(B)/libttcap.so
	@mkdir -p $(dir $@)
	$(CC) $(BPROF_CFLAGS) -finstrument-functions -o $@ $< -L$(B) -lttcap \
	  -Wl,-rpath,'$$ORIGIN/..' -lpthread -ldl

$(B)/bench/prof_work.pg: tests/bench/prof_work.c
	@mkdir -p $(dir $@)
	$(CC) $(BPROF_CFLAGS) -pg -o $@ $<
