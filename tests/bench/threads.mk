# threads.mk - build rules of the thread benchmark (tests/bench/bench_threads.sh):
# gen_threads writes thread-pool traces; cap_lock times a mutex lock/unlock
# pair plain and with libttcap. Outputs go to $(B)/bench/.

.PHONY: bench-threads-progs

bench-threads-progs: $(B)/bench/gen_threads $(B)/bench/cap_lock.plain $(B)/bench/cap_lock.ttcap

bench: bench-threads-progs

$(B)/bench/gen_threads: tests/bench/gen_threads.c $(LIBFMT) format/ttfmt.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) -o $@ $< $(LIBFMT) $(SYSLIBS)

$(B)/bench/cap_lock.plain: tests/bench/cap_lock.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 $(WARN) -pthread -o $@ $<

$(B)/bench/cap_lock.ttcap: tests/bench/cap_lock.c $(B)/libttcap.so
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 $(WARN) -pthread -o $@ $< -L$(B) -lttcap -Wl,-rpath,'$$ORIGIN/..' -lpthread -ldl
