# ttcc.mk - the compiler wrapper ttcc (report/cmd/ttcc.c): standalone (no
# tt library linked), built beside libttcap.so with ttcap.h in
# $(B)/include, which is where it looks for both in a build tree.

all: $(B)/ttcc $(B)/include/ttcap.h
install: install-ttcc
.PHONY: install-ttcc

# values mode's gcc flags, the ones ttcap-values.pc has (Makefile)
$(B)/obj/report/cmd/ttcc.o: LIBCFLAGS += -DTTCC_VALUES_GCC='"$(strip $(VALUES_GCC_FLAGS))"'
# --version names the trace format libttcap writes, as the other tools do
# (they ask libttfmt; ttcc links no tt library)
TTCC_FORMAT := $(shell sed -n 's/^\#define TTF_VERSION_MAJOR_WIRE \([0-9]*\).*/\1/p' format/ttf_wire.h).$(shell \
                 sed -n 's/^\#define TTF_VERSION_MINOR_WIRE \([0-9]*\).*/\1/p' format/ttf_wire.h)
$(B)/obj/report/cmd/ttcc.o: LIBCFLAGS += -DTT_TRACE_FORMAT='"$(TTCC_FORMAT)"'
$(B)/obj/report/cmd/ttcc.o: Makefile format/ttf_wire.h

$(B)/ttcc: $(B)/obj/report/cmd/ttcc.o
	$(CC) $(SAN) -o $@ $^

$(B)/include/ttcap.h: capture/ttcap.h
	@mkdir -p $(dir $@)
	cp $< $@

install-ttcc: $(B)/ttcc
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(B)/ttcc $(DESTDIR)$(PREFIX)/bin/

