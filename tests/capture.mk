# tests/capture.mk - libttcap's test programs: the trace checker used by
# tests/e2e/capture_*.sh, and the capture unit test (linked with
# libttcap.a, which the generic unit rule does not link).

fixtures: $(B)/tests/capture_check

$(B)/tests/capture_check: tests/e2e/capture_check.c $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -o $@ $< $(LIBFMT) $(SYSLIBS)

$(B)/tests/test_capture: tests/unit/test_capture.c $(B)/libttcap.a $(LIBFMT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -Itests/unit -o $@ $< $(B)/libttcap.a $(LIBFMT) \
	  $(SYSLIBS) -lcmocka

$(B)/tests/test_chaos: tests/unit/test_chaos.c $(B)/libttcap.a $(LIBFMT) capture/cap_int.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -Itests/unit -Icapture -Iformat -o $@ $< $(B)/libttcap.a $(LIBFMT) \
	  $(SYSLIBS) -lcmocka

$(B)/tests/test_probe: tests/unit/test_probe.c $(B)/libttcap.a $(LIBFMT) capture/cap_int.h capture/cap_vstr.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -Itests/unit -Icapture -Iformat -o $@ $< $(B)/libttcap.a $(LIBFMT) \
	  $(SYSLIBS) -lcmocka

$(B)/tests/test_vtab: tests/unit/test_vtab.c $(B)/libttcap.a capture/cap_int.h capture/cap_vstr.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -Itests/unit -Icapture -Iformat -o $@ $< $(B)/libttcap.a \
	  $(SYSLIBS) -lcmocka

$(B)/tests/test_clockpick: tests/unit/test_clockpick.c $(B)/libttcap.a capture/cap_int.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) -Itests/unit -Icapture -Iformat -o $@ $< $(B)/libttcap.a \
	  $(SYSLIBS) -lcmocka
