# C++ scenarios (tests/test_cxx.c, fixtures in tests/cxx/) built with the
# musl C++ toolchain that scripts/deps.sh installs (scripts/cxx-toolchain.sh),
# once per architecture: x86_64 always, i386 when configure enabled it (the
# same test source; FP_ARCH_I386 selects the i386 names, as for the
# fast-path suites). The fixtures are one tree per architecture, made by
# tests/cxx/build.sh.
#   make check-cxx        both architectures (build/tests/ARCH/test_cxx)
#   make check-cxx-i386   i386 alone
CXX_SRC := tests/cxx
CXX_MK := tests/cxx.mk
CXX_CHECK := check-cxx
CXX_ARCHS := x86_64 $(filter i386,$(ARCHS))
CXX_TESTS := tests/test_cxx
CXX_testflags = -Itests/fastpath $(if $(filter i386,$(1)),-DFP_ARCH_I386)
CXX_FIXTURE_SRCS := $(wildcard tests/cxx/*.cpp tests/cxx/*.h) tests/cxx/build.sh
CXX_WRAP_x86_64 := scripts/cxx/musl-c++
CXX_WRAP_i386 := scripts/cxx/musl-c++-i386

define cxx_rules
CXX_DIR_$(1) := $(B)/tests/cxx/$(1)
$(B)/tests/cxx/$(1)/.stamp: $(CXX_FIXTURE_SRCS) $(CXX_WRAP_$(1)) scripts/cxx/env.sh $(B)/bin/linkopt
	@echo "GEN $(B)/tests/cxx/$(1) (C++ fixtures)"
	$(Q)sh tests/cxx/build.sh $(1) $(B)/tests/cxx/$(1) $(abspath $(B)/bin/linkopt) && touch $$@
CXX_FIXTURES_$(1) := $(B)/tests/cxx/$(1)/.stamp

$(B)/tests/cxx/fpcommon-$(1).o: tests/fastpath/fpcommon.c tests/cxx.mk
	@mkdir -p $$(@D)
	@echo "CC $$< (cxx $(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests $(if $(filter i386,$(1)),-DFP_ARCH_I386) \
		-DFP_LINKOPT='"$(abspath $(B)/bin/linkopt)"' -c -o $$@ $$<
CXX_OBJS_$(1) := $(B)/tests/cxx/fpcommon-$(1).o
CXX_DEPFILES += $(B)/tests/cxx/fpcommon-$(1).d
endef
$(foreach a,$(CXX_ARCHS),$(eval $(call cxx_rules,$(a))))
$(eval $(call suite,CXX))
