# tests/reliability/reliability.mk - `make check-reliability`: the
# reliability suite (tests/reliability/run.sh, RELIABILITY.md). Its
# programs: rel_damage (damaged traces through reader, engine and renderers,
# ASan), the fixtures it records, and the ASan tools it runs.
.PHONY: check-reliability rel-progs

RELSAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# the libraries' sources compiled with ASan one object each (make -j runs
# them side by side; one compiler run for the whole tree was the longest
# step of make test's build)
RELOBJ = $(patsubst %.c,$(B)/rel-obj/%.o,$(FMT_SRC) $(DIFF_SRC) $(REP_SRC))
$(B)/rel-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -g -O1 $(RELSAN) $(CPPFLAGS_TT) -MMD -MP -c $< -o $@

$(B)/rel/rel_damage: tests/reliability/rel_damage.c tests/fuzz/fuzz_reader.c \
                     tests/fuzz/fuzz_diff.c $(RELOBJ)
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -g -O1 $(RELSAN) $(CPPFLAGS_TT) -Itests/fuzz -o $@ \
	  tests/reliability/rel_damage.c $(RELOBJ) $(SYSLIBS)

rel-progs: $(B)/rel/rel_damage
fixtures: rel-progs     # the short suite runs in make test

# the libFuzzer targets are built first whenever clang is there (a3 ran
# them only if an earlier `make fuzz` had left them in the build)
HAVE_CLANG := $(shell command -v clang 2>/dev/null)
check-reliability: all fixtures rel-progs $(if $(HAVE_CLANG),fuzz)
	$(MAKE) B=build/asan OPT=-O1 SAN="$(RELSAN)" build/asan/ttdump build/asan/ttdiff
	@sh tests/reliability/run.sh $(B)

# programs under test: instrumented, linked with libttcap.so
RELFIX = $(B)/rel/rel_count $(B)/rel/rel_life $(B)/rel/rel_hostile $(B)/rel/rel_scale \
         $(B)/rel/rel_forklock
$(B)/rel/%: tests/reliability/%.c $(B)/libttcap.so capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CC) $(FIXFLAGS) -o $@ $< -L$(B) -lttcap -Wl,-rpath,'$$ORIGIN/..' -lpthread -ldl
$(B)/rel/rel_cxx: tests/reliability/rel_cxx.cpp $(B)/libttcap.so capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CXX_FIX) -g -O1 -finstrument-functions -fno-plt -rdynamic -Icapture $(FIXSAN) -o $@ $< \
	  -L$(B) -lttcap -Wl,-rpath,'$$ORIGIN/..' -lpthread -ldl
# the library check (i) churns: no start files (rel_churnlib.c says why)
$(B)/rel/librel_churn.so: tests/reliability/rel_churnlib.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -fPIC -shared -nostartfiles -o $@ $<
rel-progs: $(RELFIX) $(B)/rel/rel_cxx $(B)/rel/librel_churn.so
rel-progs: $(B)/bench/gen_trace

# rel_syms: modules of 10^3..10^5 symbols and traces calling 1,000 of their
# functions (check_syms.sh); a plain program on libttfmt, not traced
$(B)/rel/rel_syms: tests/reliability/rel_syms.c $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(INC_tests) -o $@ $< $(LIBFMT) $(FMT_LIBS)
rel-progs: $(B)/rel/rel_syms
# rel_gen: cut, look-alike-thread and odd-module traces (issue 24 checks)
$(B)/rel/rel_gen: tests/reliability/rel_gen.c $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(INC_tests) -o $@ $< $(LIBFMT) $(FMT_LIBS)
rel-progs: $(B)/rel/rel_gen
# libfailmalloc.so: allocation-failure injection (check_oom.sh), preloaded
$(B)/rel/libfailmalloc.so: tests/reliability/failmalloc.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -g -O1 -fPIC -shared -o $@ $< -ldl -lgcc_s
rel-progs: $(B)/rel/libfailmalloc.so
