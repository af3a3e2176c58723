# What musl added after 1.2.3 and what it took away from the link level
# (tests/muslapi/, issue 26): programs calling statx, preadv2/pwritev2,
# renameat2, posix_getdents, getrandom and the 64-bit time functions
# (the time64 symbols on i386), built with the configured musl's compiler,
# and programs built with musl 1.2.3's (Debian's) that reference the LFS64
# names (fopen64, stat64, ...), each run under that musl's own loader (the
# reference) and quickbind, as PT_INTERP and by direct invocation. A
# program is built when the configured musl has what it calls (its api
# line in scripts/musl/facts); the suite says which it skipped.
#   make check-muslapi [MUSL=VERSION]
MA := $(B)/tests/muslapi
MA_SRC := tests/muslapi
MA_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
# the last musl whose libc defines the LFS64 names: Debian bookworm's
MA_OLDCC_x86_64 := musl-gcc
MA_OLDCC_i386 := i386-linux-musl-gcc
# program: the functions it needs
MA_PROGS := statx:statx rwv2:preadv2,pwritev2 renameat2:renameat2 getdents:posix_getdents \
	getrandom:getrandom time64:
ma_name = $(word 1,$(subst :, ,$(1)))
ma_comma := ,
ma_needs = $(subst $(ma_comma), ,$(word 2,$(subst :, ,$(1))))
# $(call ma_have,ARCH,PROG:NEEDS): PROG when ARCH's musl has all it needs
ma_have = $(if $(filter-out $(MUSL_API_$(1)),$(call ma_needs,$(2))),,$(call ma_name,$(2)))

define ma_arch
MA_LOADER_$(1) := $(abspath $(B)/lib/ld-quickbind-$(1).so.1)
MA_BUILT_$(1) := $(foreach p,$(MA_PROGS),$(call ma_have,$(1),$(p)))
MA_FIX_$(1) := $$(foreach p,$$(MA_BUILT_$(1)),$(MA)/$(1)/$$(p).musl $(MA)/$(1)/$$(p).qb) \
	$(foreach p,lfs64 lfs64long,$(MA)/$(1)/$(p)/prog.musl $(MA)/$(1)/$(p)/prog.qb $(MA)/$(1)/$(p)/plain/prog.musl)

$(MA)/$(1)/%.musl: $(MA_SRC)/%.c $(MA_SRC)/ma.h tests/muslapi.mk $(CONFIG)
	@mkdir -p $$(@D)
	@echo "CC[$(1) muslapi] $$@"
	$(Q)$(MUSL_CC_$(1)) $(MA_CFLAGS) -o $$@ $$<
$(MA)/$(1)/%.qb: $(MA_SRC)/%.c $(MA_SRC)/ma.h tests/muslapi.mk $(CONFIG)
	@mkdir -p $$(@D)
	@echo "CC[$(1) muslapi] $$@"
	$(Q)$(MUSL_CC_$(1)) $(MA_CFLAGS) -Wl,--dynamic-linker=$$(MA_LOADER_$(1)) -o $$@ $$<
# NAME/prog.{musl,qb}: built by musl 1.2.3 with the LFS64 names, for the
# configured musl's loader and quickbind; NAME/plain/prog.musl: the plain
# names, the configured musl throughout (the reference)
$(MA)/$(1)/%/prog.musl: $(MA_SRC)/%.c $(MA_SRC)/ma.h tests/muslapi.mk $(CONFIG)
	@mkdir -p $$(@D)
	@echo "CC[$(1) muslapi, musl 1.2.3] $$@"
	$(Q)$(MA_OLDCC_$(1)) $(MA_CFLAGS) -DLFS64 -Wl,--dynamic-linker=$(MUSL_LDSO_$(1)) -o $$@ $$<
$(MA)/$(1)/%/prog.qb: $(MA_SRC)/%.c $(MA_SRC)/ma.h tests/muslapi.mk $(CONFIG)
	@mkdir -p $$(@D)
	@echo "CC[$(1) muslapi, musl 1.2.3] $$@"
	$(Q)$(MA_OLDCC_$(1)) $(MA_CFLAGS) -DLFS64 -Wl,--dynamic-linker=$$(MA_LOADER_$(1)) -o $$@ $$<
$(MA)/$(1)/%/plain/prog.musl: $(MA_SRC)/%.c $(MA_SRC)/ma.h tests/muslapi.mk $(CONFIG)
	@mkdir -p $$(@D)
	@echo "CC[$(1) muslapi] $$@"
	$(Q)$(MUSL_CC_$(1)) $(MA_CFLAGS) -o $$@ $$<

$(MA)/$(1)/lt-compare.o: tests/lib/compare.c tests/lib/compare.h tests/muslapi.mk $(CONFIG)
	@mkdir -p $$(@D)
	@echo "CC $$< (muslapi $(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DLT_LOADER='"$$(MA_LOADER_$(1))"' \
		-DLT_FIXTURES='"$(abspath $(MA)/$(1))"' -DLT_MUSL_LDSO='"$(MUSL_LDSO_$(1))"' -c -o $$@ $$<
$(MA)/$(1)/test.o: tests/test_musl_api.c tests/muslapi.mk $(CONFIG)
	@mkdir -p $$(@D)
	@echo "CC $$< ($(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DMA_ARCH='"$(1)"' -DMA_MUSL='"$(MUSL_VERSION_$(1))"' \
		-DMA_BUILT='" $$(MA_BUILT_$(1)) "' -c -o $$@ $$<
$(B)/tests/test_muslapi_$(1): $(MA)/$(1)/test.o $(MA)/$(1)/lt-compare.o $(B)/tests/libqbtest.a
	@echo "LD $$@"
	$(Q)$(HOSTCC) -o $$@ $$^ -lcriterion

CHECK_DEPS += $$(MA_FIX_$(1))
CHECK_BINS += $(B)/tests/test_muslapi_$(1)
MUSL_CHECK_DEPS += $$(MA_FIX_$(1))
MUSL_CHECK_BINS += $(B)/tests/test_muslapi_$(1)
-include $(MA)/$(1)/test.d $(MA)/$(1)/lt-compare.d
endef
$(foreach a,$(ARCHS),$(eval $(call ma_arch,$(a))))

.PHONY: check-muslapi
check-muslapi: $(foreach a,$(ARCHS),$(B)/lib/ld-quickbind-$(a).so.1 $(MA_FIX_$(a)) $(B)/tests/test_muslapi_$(a))
	@fail=0; for a in $(ARCHS); do $(B)/tests/test_muslapi_$$a --jobs=2 || fail=1; done; exit $$fail
