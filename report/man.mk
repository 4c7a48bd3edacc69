# man.mk - the manual pages (report/cmd/man: ttdiff.1 ttdump.1 ttrec.1
# ttcc.1 libttcap.3): installed by make install, checked by make test
# against each command's --help and capture/ttcap.h (tests/check_man.sh).

MAN1 := $(wildcard report/cmd/man/*.1)
MAN3 := $(wildcard report/cmd/man/*.3)

install: install-man
test-run: check-man
.PHONY: install-man check-man

install-man:
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 644 $(MAN1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(MAN3) $(DESTDIR)$(PREFIX)/share/man/man3/

check-man: $(TOOLS) $(B)/ttcc
	@sh tests/check_man.sh $(B) report/cmd/man
