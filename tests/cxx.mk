# C++ scenarios (tests/test_cxx.c, fixtures in tests/cxx/) built with the
# musl C++ toolchain that scripts/deps.sh installs (scripts/cxx-toolchain.sh).
#   make check-cxx    the suite alone
# x86_64 only for now: the i386 runtime is not yet part of deps.sh.
CXXT := $(B)/tests/cxx/x86_64
CXX_FIXTURE_SRCS := $(wildcard tests/cxx/*.cpp tests/cxx/*.h) tests/cxx/build.sh

$(CXXT)/.stamp: $(CXX_FIXTURE_SRCS) scripts/cxx/musl-c++ scripts/cxx/env.sh $(B)/bin/linkopt
	@echo "GEN $(CXXT) (C++ fixtures)"
	$(Q)sh tests/cxx/build.sh x86_64 $(CXXT) $(abspath $(B)/bin/linkopt) && touch $@

$(B)/tests/cxx/fpcommon.o: tests/fastpath/fpcommon.c tests/cxx.mk
	@mkdir -p $(@D)
	@echo "CC $< (cxx)"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DFP_LOADER='"$(abspath $(LOADER))"' \
		-DFP_FIXTURES='"$(abspath $(CXXT))"' -DFP_MUSL_LDSO='"/lib/ld-musl-x86_64.so.1"' \
		-DFP_LINKOPT='"$(abspath $(B)/bin/linkopt)"' -c -o $@ $<

$(B)/tests/cxx/test_cxx.o: tests/test_cxx.c tests/cxx.mk
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -Itests/fastpath -c -o $@ $<

$(B)/tests/test_cxx: $(B)/tests/cxx/test_cxx.o $(B)/tests/cxx/fpcommon.o $(B)/tests/harness.o
	@echo "LD $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

.PHONY: check-cxx
check-cxx: $(LOADER) $(CXXT)/.stamp $(B)/tests/test_cxx
	$(B)/tests/test_cxx --jobs=2

-include $(B)/tests/cxx/fpcommon.d $(B)/tests/cxx/test_cxx.d
CHECK_DEPS += $(CXXT)/.stamp
CHECK_BINS += $(B)/tests/test_cxx
