# Issue 10, defect 1 (tls-pointer-init): TLS initial images that hold
# addresses, relocated before any thread's copy is taken. The fixtures of
# tests/tls-pointer-init/ are built for every configured architecture and
# run under musl's loader (the reference) and quickbind (PT_INTERP and
# direct invocation) by test_tlsinit_<arch>.

TI_SRC := tests/tls-pointer-init
TI_CC_x86_64 := $(MUSL_CC_x86_64)
TI_CC_i386 := $(MUSL_CC_i386)
TI_MUSL_LDSO_x86_64 := $(MUSL_LDSO_x86_64)
TI_MUSL_LDSO_i386 := $(MUSL_LDSO_i386)
TI_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
ti_comma := ,

# $(call ti_arch,ARCH)
define ti_arch
TI_$(1) := $(B)/tests/tlsinit/$(1)
TI_LOADER_$(1) := $(abspath $(B)/lib/ld-quickbind-$(1).so.1)
TI_FIX_$(1) := $$(TI_$(1))/libtlsinit.so $$(TI_$(1))/libtlsdl.so \
	$$(foreach p,exe exe-nopie main thr,$$(TI_$(1))/$$(p).musl $$(TI_$(1))/$$(p).qb)

$$(TI_$(1))/libtlsinit.so: $(TI_SRC)/lib.c tests/tlsinit.mk
	@mkdir -p $$(@D)
	@echo "CC[$(1) fixture] $$@"
	$(Q)$(TI_CC_$(1)) $(TI_CFLAGS) -fPIC -shared -Wl,-soname,libtlsinit.so -o $$@ $$<
$$(TI_$(1))/libtlsdl.so: $(TI_SRC)/dl.c $$(TI_$(1))/libtlsinit.so tests/tlsinit.mk
	@echo "CC[$(1) fixture] $$@"
	$(Q)$(TI_CC_$(1)) $(TI_CFLAGS) -fPIC -shared -o $$@ $$< -L$$(@D) -ltlsinit

# NAME.musl: musl's loader as PT_INTERP; NAME.qb: quickbind's. exe is built
# as reported (-O0: at -O1 gcc folds the never-written s to a constant).
$$(TI_$(1))/exe.%: $(TI_SRC)/exe.c tests/tlsinit.mk
	@mkdir -p $$(@D)
	@echo "CC[$(1) fixture] $$@"
	$(Q)$(TI_CC_$(1)) $(TI_CFLAGS) -O0 -Wl,--dynamic-linker=$$(if $$(filter qb,$$*),$$(TI_LOADER_$(1)),$(TI_MUSL_LDSO_$(1))) -o $$@ $$<
$$(TI_$(1))/exe-nopie.%: $(TI_SRC)/exe.c tests/tlsinit.mk
	@mkdir -p $$(@D)
	@echo "CC[$(1) fixture] $$@"
	$(Q)$(TI_CC_$(1)) $(TI_CFLAGS) -O0 -fno-pie -no-pie -Wl,--dynamic-linker=$$(if $$(filter qb,$$*),$$(TI_LOADER_$(1)),$(TI_MUSL_LDSO_$(1))) -o $$@ $$<
$$(TI_$(1))/main.%: $(TI_SRC)/main.c $$(TI_$(1))/libtlsinit.so tests/tlsinit.mk
	@echo "CC[$(1) fixture] $$@"
	$(Q)$(TI_CC_$(1)) $(TI_CFLAGS) -Wl,--dynamic-linker=$$(if $$(filter qb,$$*),$$(TI_LOADER_$(1)),$(TI_MUSL_LDSO_$(1))) \
		-o $$@ $$< -L$$(@D) -ltlsinit -Wl,-rpath,'$$$$ORIGIN'
$$(TI_$(1))/thr.%: $(TI_SRC)/thr.c $$(TI_$(1))/libtlsinit.so tests/tlsinit.mk
	@echo "CC[$(1) fixture] $$@"
	$(Q)$(TI_CC_$(1)) $(TI_CFLAGS) -pthread -Wl,--dynamic-linker=$$(if $$(filter qb,$$*),$$(TI_LOADER_$(1)),$(TI_MUSL_LDSO_$(1))) \
		-o $$@ $$< -L$$(@D) -ltlsinit -Wl,-rpath,'$$$$ORIGIN'

$$(TI_$(1))/lt-compare.o: tests/lib/compare.c tests/lib/compare.h tests/tlsinit.mk
	@mkdir -p $$(@D)
	@echo "CC $$< ($(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DLT_LOADER='"$$(TI_LOADER_$(1))"' \
		-DLT_FIXTURES='"$$(abspath $$(TI_$(1)))"' -DLT_MUSL_LDSO='"$(TI_MUSL_LDSO_$(1))"' -c -o $$@ $$<
$$(TI_$(1))/test.o: tests/test_tls_init.c tests/lib/compare.h
	@mkdir -p $$(@D)
	@echo "CC $$< ($(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -Itests/loader -DTI_ARCH='"$(1)"' -c -o $$@ $$<
$(B)/tests/test_tlsinit_$(1): $$(TI_$(1))/test.o $$(TI_$(1))/lt-compare.o $(B)/tests/libqbtest.a
	@echo "LD $$@"
	$(Q)$(HOSTCC) -o $$@ $$^ -lcriterion

CHECK_DEPS += $$(TI_FIX_$(1))
CHECK_BINS += $(B)/tests/test_tlsinit_$(1)
MUSL_CHECK_DEPS += $$(TI_FIX_$(1))
MUSL_CHECK_BINS += $(B)/tests/test_tlsinit_$(1)
-include $$(TI_$(1))/lt-compare.d $$(TI_$(1))/test.d
endef
$(foreach a,$(ARCHS),$(eval $(call ti_arch,$(a))))

.PHONY: check-tlsinit
check-tlsinit: $(foreach a,$(ARCHS),$(B)/lib/ld-quickbind-$(a).so.1 $(TI_FIX_$(a)) $(B)/tests/test_tlsinit_$(a))
	@fail=0; for a in $(ARCHS); do $(B)/tests/test_tlsinit_$$a --jobs=2 || fail=1; done; exit $$fail
