# i386 integration tests: real i386 musl programs and libraries built from
# tests/i386/ with i386-linux-musl-gcc, run under musl's i386 loader (the
# reference) and under build/lib/ld-quickbind-i386.so.1, both as PT_INTERP
# and by direct invocation; stdout and exit status compared. IFUNC, which
# musl's loader lacks, is compared with the same sources built for glibc
# i386. Only when configure enabled i386.
ifneq ($(filter i386,$(ARCHS)),)

I3 := $(B)/tests/i386
I3_SRC := tests/i386
I3_LOADER := $(abspath $(B)/lib/ld-quickbind-i386.so.1)
I3_MUSL_LDSO := /lib/ld-musl-i386.so.1
I3_GLIBC_LDSO := /lib/ld-linux.so.2
I3_CC := i386-linux-musl-gcc
I3_X86_64_CC := musl-gcc
I3_GLIBC_CC := i686-linux-gnu-gcc
I3_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
I3_FIXTURES :=
i3_comma := ,
I3_DEPFILES :=

# $(call i3_lib,OUT.so,SOURCES,PREREQUISITES,FLAGS[,CC])
define i3_lib
$(1): $(2) $(3) tests/i386.mk
	@mkdir -p $$(@D)
	@echo "CC[i386 fixture] $$@"
	$(Q)$(or $(5),$(I3_CC)) $(I3_CFLAGS) -fPIC -shared -Wl,-soname,$$(@F) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
I3_FIXTURES += $(1)
I3_DEPFILES += $(1).d
endef

# $(call i3_exe,OUT,SOURCES,PREREQUISITES,FLAGS[,CC]): OUT.musl (musl's
# loader as PT_INTERP) and OUT.qb (quickbind's).
define i3_exe
$(1).musl: $(2) $(3) tests/i386.mk
	@mkdir -p $$(@D)
	@echo "CC[i386 fixture] $$@"
	$(Q)$(or $(5),$(I3_CC)) $(I3_CFLAGS) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
$(1).qb: $(2) $(3) tests/i386.mk
	@mkdir -p $$(@D)
	@echo "CC[i386 fixture] $$@"
	$(Q)$(or $(5),$(I3_CC)) $(I3_CFLAGS) -Wl,--dynamic-linker=$(I3_LOADER) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
I3_FIXTURES += $(1).musl $(1).qb
I3_DEPFILES += $(1).musl.d $(1).qb.d
endef

$(eval $(call i3_exe,$(I3)/stdio,$(I3_SRC)/stdio.c))

$(eval $(call i3_lib,$(I3)/tls/libtga.so,$(I3_SRC)/libtga.c))
$(eval $(call i3_lib,$(I3)/tls/libtgd.so,$(I3_SRC)/libtgd.c,,-mtls-dialect=gnu2))
$(eval $(call i3_exe,$(I3)/tls/prog,$(I3_SRC)/tls_main.c,$(I3)/tls/libtga.so $(I3)/tls/libtgd.so,\
	-pthread -L$(I3)/tls -ltga -ltgd -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3)/tls)))

$(eval $(call i3_lib,$(I3)/copyreloc/libcr.so,$(I3_SRC)/libcr.c))
$(eval $(call i3_exe,$(I3)/copyreloc/prog,$(I3_SRC)/copyreloc_main.c,$(I3)/copyreloc/libcr.so,\
	-fno-pie -no-pie -L$(I3)/copyreloc -lcr -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3)/copyreloc)))

$(eval $(call i3_lib,$(I3)/interpose/libip.so,$(I3_SRC)/libip.c))
$(eval $(call i3_lib,$(I3)/interpose/libip2.so,$(I3_SRC)/libip2.c))
$(eval $(call i3_exe,$(I3)/interpose/prog,$(I3_SRC)/interpose_main.c,$(I3)/interpose/libip.so $(I3)/interpose/libip2.so,\
	-L$(I3)/interpose -lip -lip2 -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3)/interpose)))

I3_IF := $(I3)/initfini
$(eval $(call i3_lib,$(I3_IF)/libleaf.so,$(I3_SRC)/initfini_lib.c,,-DNAME='"leaf"' -DFN=leaf_fn))
$(eval $(call i3_lib,$(I3_IF)/libmid.so,$(I3_SRC)/initfini_lib.c,$(I3_IF)/libleaf.so,\
	-DNAME='"mid"' -DFN=mid_fn -DDEP=leaf_fn -L$(I3_IF) -lleaf -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3_IF))))
$(eval $(call i3_lib,$(I3_IF)/libtop.so,$(I3_SRC)/initfini_lib.c,$(I3_IF)/libmid.so,\
	-DNAME='"top"' -DFN=top_fn -DDEP=mid_fn -L$(I3_IF) -lmid -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3_IF))))
$(eval $(call i3_exe,$(I3_IF)/prog,$(I3_SRC)/initfini_main.c,$(I3_IF)/libtop.so,\
	-L$(I3_IF) -ltop -lmid -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3_IF))))

$(eval $(call i3_lib,$(I3)/ifunc/libifn.so,$(I3_SRC)/libifn.c))
$(eval $(call i3_exe,$(I3)/ifunc/prog,$(I3_SRC)/ifunc_main.c,$(I3)/ifunc/libifn.so,\
	-L$(I3)/ifunc -lifn -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3)/ifunc)))
$(eval $(call i3_lib,$(I3)/ifunc/glibc/libifn.so,$(I3_SRC)/libifn.c,,,$(I3_GLIBC_CC)))
$(I3)/ifunc/glibc/prog: $(I3_SRC)/ifunc_main.c $(I3)/ifunc/glibc/libifn.so tests/i386.mk
	@mkdir -p $(@D)
	@echo "CC[i386 fixture] $@"
	$(Q)$(I3_GLIBC_CC) $(I3_CFLAGS) -MMD -MP -MF $@.d -o $@ $< -L$(@D) -lifn -Wl,-rpath,$(abspath $(@D))
I3_FIXTURES += $(I3)/ifunc/glibc/prog
I3_DEPFILES += $(I3)/ifunc/glibc/prog.d

$(eval $(call i3_exe,$(I3)/time64/prog,$(I3_SRC)/time64_main.c))

$(eval $(call i3_lib,$(I3)/dlopen/libdyngd.so,$(I3_SRC)/libdyn.c,,-DDYN_NAME='"gd"'))
$(eval $(call i3_lib,$(I3)/dlopen/libdyndesc.so,$(I3_SRC)/libdyn.c,,-DDYN_NAME='"desc"' -mtls-dialect=gnu2))
$(eval $(call i3_exe,$(I3)/dlopen/prog,$(I3_SRC)/dlopen_main.c,$(I3)/dlopen/libdyngd.so $(I3)/dlopen/libdyndesc.so,\
	-pthread -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3)/dlopen)))

# DT_RELR (musl 1.2.3's loader predates it): the reference is the same
# program and library linked without packed relocations.
I3_RELR := -Wl$(i3_comma)-z$(i3_comma)pack-relative-relocs
$(eval $(call i3_lib,$(I3)/relr/librelr.so,$(I3_SRC)/relr_lib.c,,$(I3_RELR)))
$(eval $(call i3_exe,$(I3)/relr/prog,$(I3_SRC)/relr_main.c,$(I3)/relr/librelr.so,\
	$(I3_RELR) -L$(I3)/relr -lrelr -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3)/relr)))
$(eval $(call i3_lib,$(I3)/relr/plain/librelr.so,$(I3_SRC)/relr_lib.c))
$(eval $(call i3_exe,$(I3)/relr/plain/prog,$(I3_SRC)/relr_main.c,$(I3)/relr/plain/librelr.so,\
	-L$(I3)/relr/plain -lrelr -Wl$(i3_comma)-rpath$(i3_comma)$(abspath $(I3)/relr/plain)))

# need/prog needs libneed.so, found only through LD_LIBRARY_PATH: link/
# holds the good one, x86_64/ one of the wrong architecture.
$(eval $(call i3_lib,$(I3)/need/link/libneed.so,$(I3_SRC)/libneed.c))
$(eval $(call i3_lib,$(I3)/need/x86_64/libneed.so,$(I3_SRC)/libneed.c,,,$(I3_X86_64_CC)))
$(eval $(call i3_exe,$(I3)/need/prog,$(I3_SRC)/need_main.c,$(I3)/need/link/libneed.so,-L$(I3)/need/link -lneed))

# Issue 11 on i386: libneed.so with GNU hash buckets of 0x80000000 (sizes
# that wrap 32 bits) or with PT_GNU_RELRO over addresses 0-0x100000, and a
# program whose PT_TLS size wraps the address space. The corruption tool
# is the x86_64 loader suite's.
I3_CORRUPT := $(B)/tests/loader/errors/elfcorrupt
$(I3)/need/gnubucket/libneed.so $(I3)/need/relro/libneed.so: $(I3)/need/%/libneed.so: $(I3)/need/link/libneed.so $(I3_CORRUPT)
	@mkdir -p $(@D)
	$(Q)$(I3_CORRUPT) $* $< $@
$(eval $(call i3_exe,$(I3)/tlsbad/tlsprog,tests/loader/errors/tlsprog.c))
$(I3)/tlsbad/prog.musl $(I3)/tlsbad/prog.qb: $(I3)/tlsbad/prog.%: $(I3)/tlsbad/tlsprog.% $(I3_CORRUPT)
	@mkdir -p $(@D)
	$(Q)$(I3_CORRUPT) tlsmemsz $< $@ && chmod +x $@
I3_FIXTURES += $(I3)/need/gnubucket/libneed.so $(I3)/need/relro/libneed.so $(I3)/tlsbad/prog.musl $(I3)/tlsbad/prog.qb

I3_BIN := $(B)/tests/test_i386_run

$(I3_BIN).o: tests/test_i386_run.c tests/i386.mk
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DI3_DIR='"$(abspath $(I3))"' -DI3_LOADER='"$(I3_LOADER)"' \
		-DI3_MUSL_LDSO='"$(I3_MUSL_LDSO)"' -c -o $@ $<

$(I3_BIN): $(I3_BIN).o $(B)/tests/libqbtest.a
	@echo "LD $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

CHECK_DEPS += $(I3_FIXTURES)
CHECK_BINS += $(I3_BIN)

.PHONY: check-i386
check-i386: $(B)/lib/ld-quickbind-i386.so.1 $(I3_FIXTURES) $(I3_BIN)
	$(I3_BIN) --jobs=2

-include $(I3_DEPFILES) $(I3_BIN).d
endif
