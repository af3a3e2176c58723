# The one template of a per-architecture test suite: real musl programs
# and libraries built for each architecture, run under musl's loader and
# quickbind by Criterion programs that run on the host.
#
# A suite, named by its prefix P, sets before $(eval $(call suite,P)):
#   P_ARCHS        the architectures it is built for
#   P_DIR_A        the fixture root of architecture A
#   P_SRC          its fixture sources
#   P_MK           its makefile (fixtures depend on it: their flags are there)
#   P_CHECK        its make target: P_CHECK runs every architecture,
#                  P_CHECK-A one
#   P_TESTS        Criterion programs built once per architecture: the
#                  source PATH.c becomes $(B)/tests/A/$(notdir PATH), linked
#                  with tests/lib/compare.c built for A's loader and root
#   P_TESTS_ALL    Criterion programs built once for every architecture:
#                  PATH.c becomes $(B)/tests/$(notdir PATH)
# and may set:
#   P_CFLAGS       the fixtures' flags (default SUITE_CFLAGS)
#   P_LOADER_A     the loader under test (default quickbind's build for A;
#                  the .qb programs name it as PT_INTERP)
#   P_testflags    $(call P_testflags,A) the -D/-I of A's test programs
#                  (A is empty for P_TESTS_ALL)
#   P_OBJS_A       other objects A's test programs link (P_OBJS for
#                  P_TESTS_ALL)
#   P_MUSL         yes: `make check MUSL=VERSION` runs it too
# Inside its own per-architecture definitions a suite makes its fixtures
# with
#   $(call suite_lib,P,A,OUT.so,SOURCES,PREREQUISITES,FLAGS[,CC])
#   $(call suite_exe,P,A,OUT,SOURCES,PREREQUISITES,FLAGS[,CC]): OUT.musl
#       (PT_INTERP musl's loader) and OUT.qb (the loader under test)
#   $(call suite_prog,P,A,OUT,SOURCES,PREREQUISITES,FLAGS[,CC]): OUT alone,
#       with its compiler's own PT_INTERP (run by direct invocation)
# (each ends in an empty line: they can be joined by foreach).
# OUT and PREREQUISITES relative to P_DIR_A, SOURCES to P_SRC; a library's
# soname is its file name; libraries are found in OUT's directory. Rules
# of its own add their outputs to P_FIXTURES_A and their depfiles to
# P_DEPFILES. Every rule creates the directory it writes into.

comma := ,
SUITE_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
suite_cflags = $(or $($(1)_CFLAGS),$(SUITE_CFLAGS))
suite_loader = $(or $($(1)_LOADER_$(2)),$(abspath $(B)/lib/ld-quickbind-$(2).so.1))
# what a run needs built: quickbind, unless the suite names another loader
suite_loader_dep = $(if $($(1)_LOADER_$(2)),,$(B)/lib/ld-quickbind-$(2).so.1)

.PHONY: suite-force
suite-force:

define suite_lib
$($(1)_DIR_$(2))/$(3): $(addprefix $($(1)_SRC)/,$(4)) $(addprefix $($(1)_DIR_$(2))/,$(5)) $($(1)_MK) tests/suite.mk
	@mkdir -p $$(@D)
	@echo "CC[$(2) fixture] $$@"
	$(Q)$(or $(7),$(MUSL_CC_$(2))) $(call suite_cflags,$(1)) -fPIC -shared -Wl,-soname,$$(@F) \
		-MMD -MP -MF $$@.d -o $$@ $(addprefix $($(1)_SRC)/,$(4)) $(6) -L$$(@D)
$(1)_FIXTURES_$(2) += $($(1)_DIR_$(2))/$(3)
$(1)_DEPFILES += $($(1)_DIR_$(2))/$(3).d

endef

define suite_exe
$($(1)_DIR_$(2))/$(3).musl $($(1)_DIR_$(2))/$(3).qb: $($(1)_DIR_$(2))/$(3).%: $(addprefix $($(1)_SRC)/,$(4)) \
		$(addprefix $($(1)_DIR_$(2))/,$(5)) $($(1)_MK) tests/suite.mk $($(1)_DIR_$(2))/interp.stamp
	@mkdir -p $$(@D)
	@echo "CC[$(2) fixture] $$@"
	$(Q)$(or $(7),$(MUSL_CC_$(2))) $(call suite_cflags,$(1)) \
		-Wl,--dynamic-linker=$$(if $$(filter qb,$$*),$(call suite_loader,$(1),$(2)),$(MUSL_LDSO_$(2))) \
		-MMD -MP -MF $$@.d -o $$@ $(addprefix $($(1)_SRC)/,$(4)) $(6) -L$$(@D)
$(1)_FIXTURES_$(2) += $($(1)_DIR_$(2))/$(3).musl $($(1)_DIR_$(2))/$(3).qb
$(1)_DEPFILES += $($(1)_DIR_$(2))/$(3).musl.d $($(1)_DIR_$(2))/$(3).qb.d

endef

define suite_prog
$($(1)_DIR_$(2))/$(3): $(addprefix $($(1)_SRC)/,$(4)) $(addprefix $($(1)_DIR_$(2))/,$(5)) $($(1)_MK) tests/suite.mk
	@mkdir -p $$(@D)
	@echo "CC[$(2) fixture] $$@"
	$(Q)$(or $(7),$(MUSL_CC_$(2))) $(call suite_cflags,$(1)) \
		-MMD -MP -MF $$@.d -o $$@ $(addprefix $($(1)_SRC)/,$(4)) $(6) -L$$(@D)
$(1)_FIXTURES_$(2) += $($(1)_DIR_$(2))/$(3)
$(1)_DEPFILES += $($(1)_DIR_$(2))/$(3).d

endef

# $(call suite_test,P,A,SOURCE-WITHOUT-.c,OUT,LINKED): one Criterion program
define suite_test
$(4).o: $(3).c $($(1)_MK)
	@mkdir -p $$(@D)
	@echo "CC $$<$(if $(2), ($(2)))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -I$($(1)_SRC) $(call $(1)_testflags,$(2)) -c -o $$@ $$<
$(4): $(4).o $(5) $(B)/tests/libqbtest.a
	@echo "LD $$@"
	$(Q)$(HOSTCC) -o $$@ $$(filter %.o %.a,$$^) -lcriterion
$(1)_DEPFILES += $(4).d

endef

define suite_arch
# The .qb programs and compare.c record the loader under test: rebuilt
# when it changes.
$($(1)_DIR_$(2))/interp.stamp: suite-force
	@mkdir -p $$(@D)
	$(Q)echo '$(call suite_loader,$(1),$(2))' | cmp -s - $$@ || echo '$(call suite_loader,$(1),$(2))' > $$@
$($(1)_DIR_$(2))/lt-compare.o: tests/lib/compare.c $($(1)_DIR_$(2))/interp.stamp $($(1)_MK)
	@mkdir -p $$(@D)
	@echo "CC $$< ($(1) $(2))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DLT_LOADER='"$(call suite_loader,$(1),$(2))"' \
		-DLT_FIXTURES='"$(abspath $($(1)_DIR_$(2)))"' -DLT_MUSL_LDSO='"$(MUSL_LDSO_$(2))"' -c -o $$@ $$<
$(1)_DEPFILES += $($(1)_DIR_$(2))/lt-compare.d
$(1)_BINS_$(2) := $(foreach t,$($(1)_TESTS),$(B)/tests/$(2)/$(notdir $(t)))
$(foreach t,$($(1)_TESTS),$(call suite_test,$(1),$(2),$(t),$(B)/tests/$(2)/$(notdir $(t)),\
	$($(1)_DIR_$(2))/lt-compare.o $($(1)_OBJS_$(2))))

.PHONY: $($(1)_CHECK)-$(2)
$($(1)_CHECK)-$(2): $(call suite_loader_dep,$(1),$(2)) $$($(1)_FIXTURES_$(2)) $$($(1)_BINS_$(2)) $$($(1)_ALL_BINS)
	$$(call run_suites,$$@,$$($(1)_BINS_$(2)) $$($(1)_ALL_BINS))
CHECK_DEPS += $$($(1)_FIXTURES_$(2))
CHECK_BINS += $$($(1)_BINS_$(2))
$(if $(filter yes,$($(1)_MUSL)),MUSL_CHECK_DEPS += $$($(1)_FIXTURES_$(2))
MUSL_CHECK_BINS += $$($(1)_BINS_$(2)))

endef

define suite
$(1)_ALL_BINS := $(foreach t,$($(1)_TESTS_ALL),$(B)/tests/$(notdir $(t)))
$(foreach t,$($(1)_TESTS_ALL),$(call suite_test,$(1),,$(t),$(B)/tests/$(notdir $(t)),$($(1)_OBJS)))
$(foreach a,$($(1)_ARCHS),$(call suite_arch,$(1),$(a)))
CHECK_BINS += $$($(1)_ALL_BINS)
$(if $(filter yes,$($(1)_MUSL)),MUSL_CHECK_BINS += $$($(1)_ALL_BINS))

.PHONY: $($(1)_CHECK)
$($(1)_CHECK): $(foreach a,$($(1)_ARCHS),$(call suite_loader_dep,$(1),$(a)) $$($(1)_FIXTURES_$(a)) $$($(1)_BINS_$(a))) \
		$$($(1)_ALL_BINS)
	$$(call run_suites,$$@,$(foreach a,$($(1)_ARCHS),$$($(1)_BINS_$(a))) $$($(1)_ALL_BINS))
-include $$($(1)_DEPFILES)
endef
