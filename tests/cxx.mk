# C++ scenarios (tests/test_cxx.c, fixtures in tests/cxx/) built with the
# musl C++ toolchain that scripts/deps.sh installs (scripts/cxx-toolchain.sh),
# once per architecture: x86_64 always, i386 when configure enabled it (the
# same test source; FP_ARCH_I386 selects the i386 names, as for the
# fast-path suites).
#   make check-cxx        x86_64 (build/tests/test_cxx)
#   make check-i386-cxx   i386   (build/tests/test_i386_cxx)
CXX_ARCHS := x86_64 $(filter i386,$(ARCHS))
CXX_FIXTURE_SRCS := $(wildcard tests/cxx/*.cpp tests/cxx/*.h) tests/cxx/build.sh

CXXT_x86_64 := $(B)/tests/cxx/x86_64
CXX_WRAP_x86_64 := scripts/cxx/musl-c++
CXX_BIN_x86_64 := $(B)/tests/test_cxx
CXX_CHECK_x86_64 := check-cxx

CXXT_i386 := $(B)/tests/cxx/i386
CXX_WRAP_i386 := scripts/cxx/musl-c++-i386
CXX_DEFS_i386 := -DFP_ARCH_I386
CXX_BIN_i386 := $(B)/tests/test_i386_cxx
CXX_CHECK_i386 := check-i386-cxx

define cxx_rules
$(CXXT_$(1))/.stamp: $(CXX_FIXTURE_SRCS) $(CXX_WRAP_$(1)) scripts/cxx/env.sh $(B)/bin/linkopt
	@echo "GEN $(CXXT_$(1)) (C++ fixtures)"
	$(Q)sh tests/cxx/build.sh $(1) $(CXXT_$(1)) $(abspath $(B)/bin/linkopt) && touch $$@

$(B)/tests/cxx/fpcommon-$(1).o: tests/fastpath/fpcommon.c tests/cxx.mk
	@mkdir -p $$(@D)
	@echo "CC $$< (cxx $(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests $(CXX_DEFS_$(1)) \
		-DFP_LINKOPT='"$(abspath $(B)/bin/linkopt)"' -c -o $$@ $$<

$(B)/tests/cxx/lt-compare-$(1).o: tests/lib/compare.c tests/cxx.mk
	@mkdir -p $$(@D)
	@echo "CC $$< (cxx $(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DLT_LOADER='"$(abspath $(B)/lib/ld-quickbind-$(1).so.1)"' \
		-DLT_FIXTURES='"$(abspath $(CXXT_$(1)))"' -DLT_MUSL_LDSO='"/lib/ld-musl-$(1).so.1"' -c -o $$@ $$<

$(B)/tests/cxx/test_cxx-$(1).o: tests/test_cxx.c tests/cxx.mk
	@mkdir -p $$(@D)
	@echo "CC $$< ($(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -Itests/fastpath $(CXX_DEFS_$(1)) -c -o $$@ $$<

$(CXX_BIN_$(1)): $(B)/tests/cxx/test_cxx-$(1).o $(B)/tests/cxx/fpcommon-$(1).o \
		$(B)/tests/cxx/lt-compare-$(1).o $(B)/tests/libqbtest.a
	@echo "LD $$@"
	$(Q)$(HOSTCC) -o $$@ $$^ -lcriterion

.PHONY: $(CXX_CHECK_$(1))
$(CXX_CHECK_$(1)): $(B)/lib/ld-quickbind-$(1).so.1 $(CXXT_$(1))/.stamp $(CXX_BIN_$(1))
	$(CXX_BIN_$(1)) --jobs=2

-include $(B)/tests/cxx/fpcommon-$(1).d $(B)/tests/cxx/lt-compare-$(1).d $(B)/tests/cxx/test_cxx-$(1).d
CHECK_DEPS += $(CXXT_$(1))/.stamp
CHECK_BINS += $(CXX_BIN_$(1))
endef
$(foreach a,$(CXX_ARCHS),$(eval $(call cxx_rules,$(a))))
