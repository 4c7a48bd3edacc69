# tt - trace-travel debugging toolkit.
#
#   make            libraries and tools into build/
#   make test       deps check, then in parallel (JOBS, default nproc): the build,
#                   layer and stage checks, then tests/run.sh: unit tests (cmocka) and
#                   end-to-end tests, TT_JOBS at a time (default nproc + 1), a log
#                   each in build/test-logs/; a test that cannot run here exits 77
#                   and is counted as skipped, not passed; closing line
#                   "tests: N passed, N failed, N skipped". make test TESTS="a b"
#                   runs only the tests named (test_sym, ttdiff_pools, ...)
#   make asan       the same tests in an ASan+UBSan build (build/asan/)
#   make fuzz-smoke build the libFuzzer targets, run each 10 s (CI, after make test)
#   make flaky-check  the thread-using end-to-end tests 20 times each beside two
#                   busy loops (FLAKY_RUNS, FLAKY_TESTS); every run must pass
#   make bench      benchmarks against uftrace / LTTng / GNU diff (not tests)
#   make demo       record a good and a bad run of a fixture and diff them
#   make fuzz       libFuzzer targets: the trace reader (build/fuzz_reader),
#                   ttdiff's engine and a renderer on two traces (build/fuzz_diff),
#                   the symbol reader on an ELF file (build/fuzz_sym)
#   make install PREFIX=/usr/local     headers, libraries, tools, ttcap.pc
#                   (ttcap.h ttfmt.h ttdiff.h ttprof.h ttreport.h, libttcap.so/.a,
#                   libttfmt.a libttdiff.a libttreport.a, ttdump ttdiff ttrec ttcc)
#
# Folders are layers: capture/ and format/ at the bottom, diff/ on format/,
# report/ on diff/ (README.md, Architecture). Each folder's objects are
# compiled with the include paths of its own layer and those below only, so
# including a higher layer's header fails to compile (make check-layers
# proves it). Any *.mk file in a layer folder, fixtures/ or tests/ is
# included, so a module adds its own rules without editing this file.

B ?= build
PREFIX ?= /usr/local
CC ?= cc
SAN ?=
OPT ?= -O2
CAPDEFS ?=
# the one version of the toolkit: every tool's --version, the HTML report,
# ttcap.pc and the CMake package (the libraries' API versions are their
# headers' *_VERSION_* macros)
VERSION = 1.1.0

WARN = -Wall -Wextra -Wshadow -Wconversion -Wstrict-prototypes \
       -Wmissing-prototypes -Wno-sign-conversion
ifdef WERROR
WARN += -Werror
endif
# include paths per layer: capture/ sees the format's wire header alone
# (copied into $(B)/inc/wire), format/ itself, diff/ and report/ the layers
# below them, the commands the public headers; tests, benchmarks and test
# tools see everything
INC_capture = -Icapture -I$(B)/inc/wire
INC_format  = -Iformat
INC_diff    = -Idiff -Iformat
INC_report  = -Ireport -Idiff -Iformat
# the commands (report/cmd/) see the libraries as an installed user does:
# their own folder and the public headers (copied into $(B)/inc/pub)
INC_cmd     = -Ireport/cmd -I$(B)/inc/pub
INC_tests   = -Iformat -Icapture -Idiff -Ireport -Itests/unit -Ifixtures/traces
CPPFLAGS_TT = -Iformat -Icapture -Idiff -Ireport -D_GNU_SOURCE
CFLAGS_BASE = -std=gnu11 -g $(OPT) -fPIC $(WARN) $(SAN) -D_GNU_SOURCE -DTT_VERSION='"$(VERSION)"'
CFLAGS_TT = $(CFLAGS_BASE) $(CPPFLAGS_TT)
LIBCFLAGS = $(CFLAGS_BASE) -fvisibility=hidden
# dependency tracking of tests and tools (a .d beside each output)
DEPFLAGS = -MMD -MP -MF $@.d
# what each library needs at link time (libttfmt: libdw; libttdiff adds
# PCRE2 and xxHash; libttreport adds nothing)
FMT_LIBS = -ldw -lelf -lpthread -ldl -lm
DIFF_LIBS = -lpcre2-8 -lxxhash
SYSLIBS = $(DIFF_LIBS) $(FMT_LIBS)
export B CC SAN

# ---- sources ---------------------------------------------------------------
FMT_SRC  := $(wildcard format/*.c)
CAP_SRC  := $(wildcard capture/*.c capture/*.S)
DIFF_SRC := $(wildcard diff/*.c)
REP_SRC  := $(wildcard report/*.c)
# the commands and their shared command-line module (cli.c), linked into
# the tools, not into libttreport
CMD_SRC  := $(wildcard report/cmd/*.c)
# the public headers, as installed
PUB_HDR  := capture/ttcap.h format/ttfmt.h diff/ttdiff.h diff/ttprof.h report/ttreport.h
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_HLP := $(filter-out tests/unit/test_%, $(wildcard tests/unit/*.c))

obj = $(patsubst %.S,$(B)/obj/%.o,$(patsubst %.c,$(B)/obj/%.o,$(1)))

LIBFMT  = $(B)/libttfmt.a
LIBDIFF = $(B)/libttdiff.a
LIBREP  = $(B)/libttreport.a
TOOLS   = $(B)/ttdump $(B)/ttdiff $(B)/ttrec
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))

.PHONY: all deps test test-build test-run unit e2e asan bench demo demo-run fuzz \
        fuzz-smoke flaky-check install clean check-headers check-layers check-stages

# jobs of the build inside make test, fuzz-smoke and demo
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

all: $(LIBFMT) $(B)/libttcap.so $(B)/libttcap.a $(LIBDIFF) $(LIBREP) \
     $(TOOLS) $(B)/ttcap.pc

deps:
	@sh .ci/deps

# the layer of an object is its folder: INC_<folder> are its include paths,
# WARN_<folder> its own warnings (diff/: a stage's result is const once
# returned, so no cast may take const away: issue 35)
WARN_diff = -Wcast-qual -Werror=cast-qual
$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(LIBCFLAGS) $(INC_$(firstword $(subst /, ,$*))) $(WARN_$(firstword $(subst /, ,$*))) -MMD -MP -c $< -o $@

# capture/ is never instrumented and never sees -finstrument-functions; nor
# does gcc turn its loops into memset/memmove calls (a libc call from the
# values hooks clobbers the vector registers they must keep: values_calls)
CAP_NOLIBCALL := $(shell $(CC) -Werror -fno-tree-loop-distribute-patterns -c -x c /dev/null \
                   -o /dev/null 2>/dev/null && echo -fno-tree-loop-distribute-patterns)
$(B)/obj/capture/%.o: capture/%.c $(B)/inc/wire/ttf_wire.h
	@mkdir -p $(dir $@)
	$(CC) $(LIBCFLAGS) $(INC_capture) $(CAPDEFS) $(CAP_NOLIBCALL) -fno-instrument-functions -MMD -MP -c $< -o $@

$(B)/inc/wire/ttf_wire.h: format/ttf_wire.h
	@mkdir -p $(dir $@)
	cp $< $@

# the commands: compiled against the public headers only
$(B)/obj/report/cmd/%.o: report/cmd/%.c $(addprefix $(B)/inc/pub/,$(notdir $(PUB_HDR)))
	@mkdir -p $(dir $@)
	$(CC) $(LIBCFLAGS) $(INC_cmd) -MMD -MP -c $< -o $@

$(foreach h,$(PUB_HDR),$(eval $(B)/inc/pub/$(notdir $(h)): $(h) ; @mkdir -p $$(dir $$@) && cp $$< $$@))

$(LIBFMT): $(call obj,$(FMT_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBDIFF): $(call obj,$(DIFF_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBREP): $(call obj,$(REP_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# one relocatable object: a static link takes all of libttcap or nothing (its
# constructor and interposers are referenced by no symbol of the program)
$(B)/libttcap.a: $(call obj,$(CAP_SRC))
	@mkdir -p $(dir $@)
	$(CC) -r -nostdlib -o $(B)/obj/capture/libttcap.o $^
	rm -f $@ && ar rcs $@ $(B)/obj/capture/libttcap.o

$(B)/libttcap.so: $(call obj,$(CAP_SRC))
	@mkdir -p $(dir $@)
	$(CC) -shared $(SAN) -o $@ $^ -Wl,-soname,libttcap.so.1 -lpthread -ldl
	ln -sf libttcap.so $(B)/libttcap.so.1

$(B)/ttdump: $(B)/obj/report/cmd/ttdump.o $(B)/obj/report/cmd/cli.o $(LIBREP) $(LIBDIFF) $(LIBFMT)
	$(CC) $(SAN) -o $@ $^ $(SYSLIBS)

$(B)/ttdiff: $(B)/obj/report/cmd/ttdiff.o $(B)/obj/report/cmd/cli.o \
             $(B)/obj/report/cmd/ttdiff_gdb.o $(LIBREP) $(LIBDIFF) $(LIBFMT)
	$(CC) $(SAN) -o $@ $^ $(SYSLIBS)

$(B)/ttrec: $(B)/obj/report/cmd/ttrec.o $(B)/obj/report/cmd/cli.o \
            $(B)/obj/report/cmd/ttrec_closest.o $(LIBREP) $(LIBDIFF) $(LIBFMT)
	$(CC) $(SAN) -o $@ $^ $(SYSLIBS)

# -lttcap kept under --as-needed wherever the flags stand (build systems put
# LDFLAGS before the objects, where --as-needed would drop the library and
# bind the hooks to glibc's empty ones, silently)
TTCAP_LINK = -Wl,--push-state,--no-as-needed -lttcap -Wl,--pop-state
# values mode's gcc flags beside -pg -mfentry (ttcap-values.pc, ttcc
# --values, ttcap::values): a function gcc inlines, splits or clones has
# no __fentry__ of its own, or a signature that is not the declared one;
# what they cost and recover on lua5.4 and jq is capture/VALUES.md's table
# (tests/bench/values_flags.sh). -fno-ipa-ra is for correctness, not for
# what is seen: without it gcc keeps a caller's values in call-clobbered
# registers across a call to a function whose body it saw not touch them,
# and the hooks run in that function (capture/VALUES.md). gcc only: clang
# knows none of them.
VALUES_GCC_FLAGS = -fno-inline-functions-called-once -fno-ipa-sra \
                   -fno-partial-inlining -fno-ipa-ra

$(B)/ttcap.pc: Makefile
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	  'includedir=$${prefix}/include' '' 'Name: ttcap' \
	  'Description: tt capture library (function and message tracing)' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir} -finstrument-functions -fno-plt' \
	  'Libs: -L$${libdir} $(TTCAP_LINK)' 'Libs.private: -lpthread -ldl' > $@

# ---- tests -----------------------------------------------------------------
$(B)/tests/%: tests/unit/%.c $(call obj,$(UNIT_HLP)) $(LIBREP) $(LIBDIFF) \
              $(LIBFMT) $(B)/libttcap.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) $(INC_tests) -o $@ $< $(call obj,$(UNIT_HLP)) \
	  $(LIBREP) $(LIBDIFF) $(LIBFMT) $(SYSLIBS) -lcmocka

unit: all $(UNIT_BIN)

# test and demo check the Debian packages first (.ci/deps), then build: a
# second make, so a parallel build never starts before the packages are in.
# test-build is everything the tests need; test-run runs them (tests/run.sh
# is its own job pool, so it is not run under make's -j)
# (the reader's UBSan pass and the fuzzers are make fuzz-smoke's, which CI
# runs after make test)
test:
	@sh .ci/deps --test
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@$(MAKE) --no-print-directory test-run

test-build: unit fixtures check-headers check-layers check-stages

test-run: test-build
	@sh tests/run.sh $(B) $(TESTS)

# Fatal signals stay with the program under test (libttcap records them),
# not with ASan's own handler.
asan:
	ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0 \
	$(MAKE) B=build/asan OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" test

bench: all fixtures
	@sh tests/bench/run.sh $(B)

# demo builds only what it runs (two tools, one fixture), in parallel
demo:
	@sh .ci/deps
	@$(MAKE) --no-print-directory -j$(JOBS) demo-run

demo-run: $(B)/ttdiff $(B)/ttdump $(B)/fixtures/race_queue
	@sh fixtures/demo.sh $(B)

fuzz: $(B)/fuzz_reader $(B)/fuzz_diff $(B)/fuzz_sym

# the fuzz targets' objects: clang, libFuzzer's coverage, ASan and UBSan
# (undefined behaviour is a crash: UBSan stops at the first report); one
# object per source, so the targets share the format's and make -j
# compiles them side by side
FUZZ_UB = -fno-sanitize-recover=undefined
FUZZCFLAGS = -g -O1 -fsanitize=fuzzer-no-link,address,undefined $(FUZZ_UB) $(CPPFLAGS_TT)
fuzzobj = $(patsubst %.c,$(B)/fuzz-obj/%.o,$(1))
$(B)/fuzz-obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZCFLAGS) -MMD -MP -c $< -o $@

$(B)/fuzz_reader: $(call fuzzobj,tests/fuzz/fuzz_reader.c $(FMT_SRC))
	clang -fsanitize=fuzzer,address,undefined $(FUZZ_UB) -o $@ $^ $(SYSLIBS)

$(B)/fuzz_diff: $(call fuzzobj,tests/fuzz/fuzz_diff.c $(FMT_SRC) $(DIFF_SRC) $(REP_SRC))
	clang -fsanitize=fuzzer,address,undefined $(FUZZ_UB) -o $@ $^ $(SYSLIBS)

$(B)/fuzz_sym: $(call fuzzobj,tests/fuzz/fuzz_sym.c $(FMT_SRC))
	clang -fsanitize=fuzzer,address,undefined $(FUZZ_UB) -o $@ $^ $(SYSLIBS)

# the fuzz smoke run (tests/fuzz/smoke.sh): skipped, saying so, without
# clang's libFuzzer
fuzz-smoke:
	@sh tests/fuzz/smoke.sh --probe || { echo "fuzz-smoke: skipped"; exit 0; }; \
	$(MAKE) --no-print-directory -j$(JOBS) fuzz $(B)/fixtures/cap_calls $(B)/fixtures/diff_parse && \
	sh tests/fuzz/smoke.sh $(B)

# the end-to-end tests whose threads' interleaving could change their outcome,
# FLAKY_RUNS times each beside two busy loops (tests/flaky_check.sh)
FLAKY_RUNS ?= 20
flaky-check:
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@sh tests/flaky_check.sh $(B) $(FLAKY_RUNS) $(FLAKY_TESTS)

# every public header compiles on its own as C99, with its layer's include
# paths in the tree and from one folder as installed
check-headers:
	@set -e; rm -rf $(B)/inc/all; mkdir -p $(B)/inc/all; \
	cp $(PUB_HDR) $(B)/inc/all/; \
	for h in capture:ttcap.h format:ttfmt.h diff:ttdiff.h diff:ttprof.h report:ttreport.h; do \
	  l=$${h%%:*}; f=$${h#*:}; \
	  case $$l in capture) inc="-Icapture";; format) inc="$(INC_format)";; \
	    diff) inc="$(INC_diff)";; report) inc="$(INC_report)";; esac; \
	  for i in "$$inc" "-I$(B)/inc/all"; do \
	    echo "#include \"$$f\"" | $(CC) -std=c99 -Wall -Wextra -Werror -x c -fsyntax-only $$i - \
	      || { echo "check-headers: $$f with $$i"; exit 1; }; \
	  done; \
	done

# each layer compiles its own and lower headers and fails on higher ones
check-layers: $(B)/inc/wire/ttf_wire.h $(addprefix $(B)/inc/pub/,$(notdir $(PUB_HDR)))
	@CC="$(CC)" B="$(B)" INC_capture="$(INC_capture)" INC_format="$(INC_format)" \
	  INC_diff="$(INC_diff)" INC_report="$(INC_report)" INC_cmd="$(INC_cmd)" \
	  sh tests/check_layers.sh

# inside a room, files form stages (diff/STAGES, capture/STAGES, format/STAGES,
# report/STAGES, report/cmd/STAGES):
# from the objects' symbols, no file calls a higher stage and no files call
# each other in a cycle; the probe first proves the check catches both; and
# the docs that state a stage (file headers, lists written as the map
# writes them) agree with the map (tests/check_stage_docs.py, its probe first)
check-stages: $(call obj,$(DIFF_SRC)) $(if $(wildcard capture/STAGES),$(call obj,$(CAP_SRC))) \
              $(if $(wildcard format/STAGES),$(call obj,$(FMT_SRC))) \
              $(call obj,$(REP_SRC)) $(call obj,$(CMD_SRC))
	@CC="$(CC)" sh tests/check_stages.sh --probe $(B)/probe/stages
	@CC="$(CC)" ROOM_CFLAGS="$(LIBCFLAGS) $(INC_diff) $(WARN_diff)" \
	    sh tests/check_stages.sh $(B)/obj/diff diff/STAGES
	@$(if $(wildcard capture/STAGES),sh tests/check_stages.sh $(B)/obj/capture capture/STAGES,:)
	@$(if $(wildcard format/STAGES),sh tests/check_stages.sh $(B)/obj/format format/STAGES,:)
	@sh tests/check_stages.sh $(B)/obj/report report/STAGES
	@sh tests/check_stages.sh $(B)/obj/report/cmd report/cmd/STAGES
	@python3 tests/check_stage_docs.py --probe $(B)/probe/stagedocs
	@python3 tests/check_stage_docs.py . $(wildcard */STAGES */*/STAGES)

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(PUB_HDR) $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(B)/libttcap.a $(LIBFMT) $(LIBDIFF) $(LIBREP) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libttcap.so $(DESTDIR)$(PREFIX)/lib/libttcap.so.1
	ln -sf libttcap.so.1 $(DESTDIR)$(PREFIX)/lib/libttcap.so
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(B)/ttcap.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ttcap.pc
	install -d $(DESTDIR)$(PREFIX)/lib/cmake/ttcap
	install -m 644 capture/cmake/ttcapConfig.cmake $(DESTDIR)$(PREFIX)/lib/cmake/ttcap/
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(firstword $(subst ., ,$(VERSION)))|g' \
	  -e "s|@SIZEOF_VOID_P@|$$(($$(getconf LONG_BIT) / 8))|g" \
	  capture/cmake/ttcapConfigVersion.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/ttcap/ttcapConfigVersion.cmake

clean:
	rm -rf build

# fixtures: programs built with -finstrument-functions against libttcap
FIX_SRC := $(wildcard fixtures/progs/*.c)
FIX_BIN := $(patsubst fixtures/progs/%.c,$(B)/fixtures/%,$(FIX_SRC))
# fixtures are the programs under test: ASan checks them with libttcap, but
# UBSan would stop the deliberate crashes before they become signals
FIXSAN = $(SAN) $(if $(SAN),-fno-sanitize=undefined)
FIXFLAGS = -std=gnu11 -g -O1 -finstrument-functions -fno-plt -rdynamic -Icapture $(FIXSAN)

fixtures: all $(FIX_BIN)

$(B)/fixtures/%: fixtures/progs/%.c $(B)/libttcap.so capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CC) $(FIXFLAGS) -o $@ $< -L$(B) -lttcap -Wl,-rpath,'$$ORIGIN/..' -lpthread -ldl

.PHONY: fixtures

-include $(wildcard format/*.mk capture/*.mk diff/*.mk report/*.mk fixtures/*.mk tests/*.mk tests/*/*.mk)
-include $(shell find $(B) -name '*.d' 2>/dev/null)
