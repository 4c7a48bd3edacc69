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
