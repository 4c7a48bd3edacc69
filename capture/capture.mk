# capture.mk - extra rules for libttcap's tests: the dlopen'd plugin fixture,
# the trace checker used by tests/e2e/capture_*.sh, and capture unit tests
# (linked with libttcap.a, which the generic unit rule does not link).

fixtures: $(B)/fixtures/cap_plugin.so $(B)/tests/capture_check

$(B)/fixtures/cap_plugin.so: fixtures/progs/cap_dlopen.c
	@mkdir -p $(dir $@)
	$(CC) $(FIXFLAGS) -DCAP_PLUGIN -shared -fPIC -o $@ $<

$(B)/tests/capture_check: tests/e2e/capture_check.c $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -o $@ $< $(LIBFMT) $(SYSLIBS)

$(B)/tests/test_capture: tests/unit/test_capture.c $(B)/libttcap.a $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -Itests/unit -o $@ $< $(B)/libttcap.a $(LIBFMT) \
	  $(SYSLIBS) -lcmocka

# cap_calls linked with the static library (libttcap.a inside the program)
fixtures: $(B)/fixtures/cap_static
$(B)/fixtures/cap_static: fixtures/progs/cap_calls.c $(B)/libttcap.a capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CC) $(FIXFLAGS) -o $@ $< $(B)/libttcap.a -lpthread -ldl $(if $(SAN),-lubsan)

# values mode (cap_fentry.S, cap_values.c): the assembly entry points, and
# a fast path that must leave the vector registers alone (they hold the
# traced function's floating point arguments)
$(B)/obj/capture/%.o: capture/%.S
	@mkdir -p $(dir $@)
	$(CC) -fPIC -g -MMD -MP -c $< -o $@

ifeq ($(shell uname -m),x86_64)
$(B)/obj/capture/cap_values.o: LIBCFLAGS += -mgeneral-regs-only
endif

# ttcap-values.pc: values mode flags (compile with them, link without -pg;
# the library kept under --as-needed, as in ttcap.pc)
all: $(B)/ttcap-values.pc
install: install-values-pc
.PHONY: install-values-pc

$(B)/ttcap-values.pc: capture/capture.mk Makefile
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	  'includedir=$${prefix}/include' '' 'Name: ttcap-values' \
	  'Description: tt capture library, values mode: arguments and return values (x86-64; compile with the Cflags, link without -pg)' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir} -pg -mfentry' \
	  'Libs: -L$${libdir} $(TTCAP_LINK)' 'Libs.private: -lpthread -ldl' > $@

install-values-pc: $(B)/ttcap-values.pc
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(B)/ttcap-values.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ttcap-values.pc
# the secure-execution fixtures (tests/e2e/capture_setuid.sh makes copies of
# them setuid root): libttcap.so found through an absolute rpath (glibc does
# not expand $ORIGIN for setuid programs), libttcap.a, and libttcap.a with
# the program's TTCAP_ALLOW_SECURE_EXEC() opt-in
fixtures: $(B)/fixtures/cap_suid_abs $(B)/fixtures/cap_suid_static \
          $(B)/fixtures/cap_suid_optin
$(B)/fixtures/cap_suid_abs: fixtures/progs/cap_suid.c $(B)/libttcap.so capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CC) $(FIXFLAGS) -o $@ $< -L$(B) -lttcap -Wl,-rpath,$(abspath $(B)) -lpthread -ldl
$(B)/fixtures/cap_suid_static: fixtures/progs/cap_suid.c $(B)/libttcap.a capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CC) $(FIXFLAGS) -o $@ $< $(B)/libttcap.a -lpthread -ldl $(if $(SAN),-lubsan)
$(B)/fixtures/cap_suid_optin: fixtures/progs/cap_suid.c $(B)/libttcap.a capture/ttcap.h
	@mkdir -p $(dir $@)
	$(CC) $(FIXFLAGS) -DCAP_SUID_OPTIN -o $@ $< $(B)/libttcap.a -lpthread -ldl $(if $(SAN),-lubsan)
