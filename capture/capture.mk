# capture.mk - libttcap's own build rules: the assembly files, the values
# mode fast path's compile flags, ttcap-values.pc. Its tests' rules are in
# tests/capture.mk, its fixture programs' in fixtures/capture.mk.

# values mode (cap_fentry.S, cap_tramp.S, cap_values.c, cap_shadow.c): the
# assembly entry points and trampoline, and C fast paths that must leave
# the vector registers alone (they hold the traced function's floating
# point arguments)
$(B)/obj/capture/%.o: capture/%.S
	@mkdir -p $(dir $@)
	$(CC) -fPIC -g -MMD -MP -c $< -o $@

ifeq ($(shell uname -m),x86_64)
$(B)/obj/capture/cap_values.o $(B)/obj/capture/cap_shadow.o: LIBCFLAGS += -mgeneral-regs-only
endif

# ttcap-values.pc: values mode flags (compile with them, link without -pg)
all: $(B)/ttcap-values.pc
install: install-values-pc
.PHONY: install-values-pc

$(B)/ttcap-values.pc: capture/capture.mk
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	  'includedir=$${prefix}/include' '' 'Name: ttcap-values' \
	  'Description: tt capture library, values mode: arguments and return values (x86-64; compile with the Cflags, link without -pg)' \
	  'Version: 1.1.0' 'Cflags: -I$${includedir} -pg -mfentry' \
	  'Libs: -L$${libdir} -lttcap' 'Libs.private: -lpthread -ldl' > $@

install-values-pc: $(B)/ttcap-values.pc
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(B)/ttcap-values.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ttcap-values.pc
