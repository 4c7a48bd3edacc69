# tests/cmd.mk - unit tests of the commands' own modules (report/cmd/, not
# part of libttreport): linked with that module's object.

$(B)/tests/test_closest: tests/unit/test_closest.c $(B)/obj/report/cmd/ttrec_closest.o \
                         $(call obj,$(UNIT_HLP)) $(LIBFMT) report/cmd/ttrec_closest.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_TT) $(DEPFLAGS) $(INC_tests) -Ireport/cmd -o $@ $< \
	  $(B)/obj/report/cmd/ttrec_closest.o $(call obj,$(UNIT_HLP)) \
	  $(LIBREP) $(LIBDIFF) $(LIBFMT) $(SYSLIBS) -lcmocka
