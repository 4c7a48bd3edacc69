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

# ttcap-values.pc: values mode flags (compile with them, link without -pg;
# the library kept under --as-needed, as in ttcap.pc); Cflags has gcc's
# VALUES_GCC_FLAGS (Makefile), the variable cflags_clang the same without
# them (clang rejects -fno-ipa-sra and the like)
all: $(B)/ttcap-values.pc
install: install-values-pc
.PHONY: install-values-pc

$(B)/ttcap-values.pc: capture/capture.mk Makefile
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	  'includedir=$${prefix}/include' \
	  'cflags_clang=-I$${includedir} -pg -mfentry' '' 'Name: ttcap-values' \
	  'Description: tt capture library, values mode: arguments and return values (x86-64; compile with the Cflags, link without -pg; clang: the cflags_clang variable)' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir} -pg -mfentry $(strip $(VALUES_GCC_FLAGS))' \
	  'Libs: -L$${libdir} $(TTCAP_LINK)' 'Libs.private: -lpthread -ldl' > $@

install-values-pc: $(B)/ttcap-values.pc
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(B)/ttcap-values.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ttcap-values.pc
