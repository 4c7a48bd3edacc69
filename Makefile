# tt - trace-travel debugging toolkit.
#
#   make            deps check, then libraries and tools into build/
#   make test       unit tests (cmocka), end-to-end tests, fuzz smoke run
#   make asan       the same tests in an ASan+UBSan build (build/asan/)
#   make bench      benchmarks against uftrace / LTTng / GNU diff (not tests)
#   make demo       record a good and a bad run of a fixture and diff them
#   make fuzz       libFuzzer target for the trace reader (build/fuzz_reader)
#   make install PREFIX=/usr/local     headers, libraries, tools, ttcap.pc
#
# Folders are layers: capture/ and format/ at the bottom, diff/ on format/,
# report/ on diff/. Any *.mk file in a layer folder, fixtures/ or tests/ is
# included, so a module adds its own rules without editing this file.

B ?= build
PREFIX ?= /usr/local
CC ?= cc
SAN ?=
OPT ?= -O2

WARN = -Wall -Wextra -Wshadow -Wconversion -Wstrict-prototypes \
       -Wmissing-prototypes -Wno-sign-conversion
ifdef WERROR
WARN += -Werror
endif
CPPFLAGS_TT = -Iformat -Icapture -Idiff -Ireport -D_GNU_SOURCE
CFLAGS_TT = -std=gnu11 -g $(OPT) -fPIC $(WARN) $(SAN) $(CPPFLAGS_TT)
LIBCFLAGS = $(CFLAGS_TT) -fvisibility=hidden
SYSLIBS = -ldw -lelf -lpcre2-8 -lxxhash -lpthread -ldl -lm
export B CC SAN

# ---- sources ---------------------------------------------------------------
FMT_SRC  := $(filter-out format/ttdump.c, $(wildcard format/*.c))
CAP_SRC  := $(wildcard capture/*.c capture/*.S)
DIFF_SRC := $(filter-out diff/ttdiff.c, $(wildcard diff/*.c))
REP_SRC  := $(wildcard report/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_HLP := $(filter-out tests/unit/test_%, $(wildcard tests/unit/*.c))

obj = $(patsubst %.S,$(B)/obj/%.o,$(patsubst %.c,$(B)/obj/%.o,$(1)))

LIBFMT  = $(B)/libttfmt.a
LIBDIFF = $(B)/libttdiff.a
LIBREP  = $(B)/libttreport.a
TOOLS   = $(B)/ttdump $(B)/ttdiff
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))

.PHONY: all deps test unit e2e asan bench demo fuzz install clean check-headers

all: deps $(LIBFMT) $(B)/libttcap.so $(B)/libttcap.a $(LIBDIFF) $(LIBREP) \
     $(TOOLS) $(B)/ttcap.pc

deps:
	@sh .ci/deps

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(LIBCFLAGS) -MMD -MP -c $< -o $@

# capture/ is never instrumented and never sees -finstrument-functions
$(B)/obj/capture/%.o: capture/%.c
	@mkdir -p $(dir $@)
	$(CC) $(LIBCFLAGS) -fno-instrument-functions -MMD -MP -c $< -o $@

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

$(B)/ttdump: $(B)/obj/format/ttdump.o $(LIBFMT)
	$(CC) $(SAN) -o $@ $^ $(SYSLIBS)

$(B)/ttdiff: $(B)/obj/diff/ttdiff.o $(LIBREP) $(LIBDIFF) $(LIBFMT)
	$(CC) $(SAN) -o $@ $^ $(SYSLIBS)

$(B)/ttcap.pc: Makefile
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	  'includedir=$${prefix}/include' '' 'Name: ttcap' \
	  'Description: tt capture library (function and message tracing)' \
	  'Version: 1.0.0' 'Cflags: -I$${includedir} -finstrument-functions -fno-plt' \
	  'Libs: -L$${libdir} -lttcap' 'Libs.private: -lpthread -ldl' > $@

# ---- tests -----------------------------------------------------------------
$(B)/tests/%: tests/unit/%.c $(call obj,$(UNIT_HLP)) $(LIBREP) $(LIBDIFF) \
              $(LIBFMT) $(B)/libttcap.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) -Itests/unit -o $@ $< $(call obj,$(UNIT_HLP)) \
	  $(LIBREP) $(LIBDIFF) $(LIBFMT) $(SYSLIBS) -lcmocka

unit: all $(UNIT_BIN)

test: unit fixtures check-headers
	@sh .ci/deps --test
	@sh tests/run.sh $(B)

# Fatal signals stay with the program under test (libttcap records them),
# not with ASan's own handler.
asan:
	ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0 \
	$(MAKE) B=build/asan OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" test

bench: all fixtures
	@sh tests/bench/run.sh $(B)

demo: all fixtures
	@sh fixtures/demo.sh $(B)

fuzz: $(B)/fuzz_reader

$(B)/fuzz_reader: tests/fuzz/fuzz_reader.c $(FMT_SRC)
	@mkdir -p $(dir $@)
	clang -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS_TT) \
	  -o $@ $^ $(SYSLIBS)

check-headers:
	@for h in format/ttfmt.h capture/ttcap.h diff/ttdiff.h report/ttreport.h; do \
	  [ -f $$h ] || continue; \
	  echo "#include \"$$h\"" | $(CC) -std=c99 -Wall -Wextra -Werror -x c -fsyntax-only -Iformat -Icapture -Idiff -Ireport - || exit 1; \
	done

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 format/ttfmt.h capture/ttcap.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(B)/libttcap.a $(LIBFMT) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libttcap.so $(DESTDIR)$(PREFIX)/lib/libttcap.so.1
	ln -sf libttcap.so.1 $(DESTDIR)$(PREFIX)/lib/libttcap.so
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(B)/ttcap.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ttcap.pc

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
-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
