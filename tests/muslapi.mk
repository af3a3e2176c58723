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
MA_SRC := tests/muslapi
MA_MK := tests/muslapi.mk
MA_CHECK := check-muslapi
MA_ARCHS := $(ARCHS)
MA_TESTS := tests/test_musl_api
MA_MUSL := yes
MA_testflags = -DMA_ARCH='"$(1)"' -DMA_MUSL='"$(MUSL_VERSION_$(1))"' -DMA_BUILT='" $(MA_BUILT_$(1)) "'
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

# NAME.{musl,qb}: the configured musl; NAME/prog.{musl,qb}: built by musl
# 1.2.3 with the LFS64 names, for the configured musl's loader and
# quickbind; NAME/plain/prog.musl: the plain names, the configured musl
# throughout (the reference)
define ma_arch
MA_BUILT_$(1) := $(foreach p,$(MA_PROGS),$(call ma_have,$(1),$(p)))
$(foreach p,$(foreach p,$(MA_PROGS),$(call ma_have,$(1),$(p))),$(call suite_exe,MA,$(1),$(p),$(p).c))
$(foreach p,lfs64 lfs64long,$(call suite_exe,MA,$(1),$(p)/prog,$(p).c,,-DLFS64,$(MA_OLDCC_$(1)))
$(call suite_prog,MA,$(1),$(p)/plain/prog.musl,$(p).c))
$$(MA_FIXTURES_$(1)) $(B)/tests/$(1)/test_musl_api.o: $(MA_SRC)/ma.h $(CONFIG)
endef
$(foreach a,$(MA_ARCHS),$(eval MA_DIR_$(a) := $(B)/tests/muslapi/$(a)))
$(foreach a,$(MA_ARCHS),$(eval $(call ma_arch,$(a))))
$(eval $(call suite,MA))
