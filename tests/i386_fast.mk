# i386 fast-path tests: the x86_64 fast-path fixtures (tests/fastpath/)
# built with i386-linux-musl-gcc, copied into opt/ where linkopt adds its
# tables to the 32-bit files, and run under ld-quickbind-i386.so.1 against
# the plain build under musl's i386 loader. The fixture sources are shared
# with tests/fastpath.mk; what only i386 needs lives in tests/i386fast/.
# Only when configure enabled i386.
ifneq ($(filter i386,$(ARCHS)),)

I3F := $(B)/tests/i386fast
I3F_FPS := tests/fastpath
I3F_SRC := tests/i386fast
I3F_LOADER := $(abspath $(B)/lib/ld-quickbind-i386.so.1)
I3F_MUSL_LDSO := /lib/ld-musl-i386.so.1
I3F_LINKOPT := $(B)/bin/linkopt
I3F_CC := i386-linux-musl-gcc
I3F_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
I3F_FIXTURES :=
I3F_DEPFILES :=
i3f_comma := ,

# $(call i3f_lib,OUT.so,SOURCES,PREREQUISITES,FLAGS): soname = file name.
define i3f_lib
$(1): $(2) $(3) tests/i386_fast.mk
	@mkdir -p $$(@D)
	@echo "CC[i386 fixture] $$@"
	$(Q)$(I3F_CC) $(I3F_CFLAGS) -fPIC -shared -Wl,-soname,$$(@F) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
I3F_FIXTURES += $(1)
I3F_DEPFILES += $(1).d
endef

# $(call i3f_exe,OUT,SOURCES,PREREQUISITES,FLAGS)
define i3f_exe
$(1): $(2) $(3) tests/i386_fast.mk
	@mkdir -p $$(@D)
	@echo "CC[i386 fixture] $$@"
	$(Q)$(I3F_CC) $(I3F_CFLAGS) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
I3F_FIXTURES += $(1)
I3F_DEPFILES += $(1).d
endef

# $(call i3f_opt,DIR,FILES): DIR/opt/ holds copies of DIR/FILES optimized
# together by linkopt (needed libraries searched in DIR/opt first).
define i3f_opt
$(1)/opt/.stamp: $(addprefix $(1)/,$(2)) $(I3F_LINKOPT)
	@echo "LINKOPT $(1)/opt"
	$(Q)rm -rf $(1)/opt && mkdir -p $(1)/opt && cp $(addprefix $(1)/,$(2)) $(1)/opt/ && \
		$(I3F_LINKOPT) -L $(1)/opt $(addprefix $(1)/opt/,$(2)) && touch $$@
I3F_FIXTURES += $(1)/opt/.stamp
endef

# ---------------------------------------------------------- interposers --
# prog_gdb: prog_exe with the i386 loader as PT_INTERP, for gdb.
I3F_T := $(I3F)/interpose
I3F_S := $(I3F_FPS)/interpose
$(eval $(call i3f_lib,$(I3F_T)/libcore.so,$(I3F_S)/libcore.c))
$(eval $(call i3f_lib,$(I3F_T)/libuser.so,$(I3F_S)/libuser.c,$(I3F_T)/libcore.so,-L$(I3F_T) -lcore))
$(eval $(call i3f_lib,$(I3F_T)/libpre.so,$(I3F_S)/libpre.c))
$(eval $(call i3f_exe,$(I3F_T)/prog_exe,$(I3F_S)/main.c,$(I3F_T)/libuser.so,-DEXE_GREET -L$(I3F_T) -luser -lcore))
$(eval $(call i3f_exe,$(I3F_T)/prog_plain,$(I3F_S)/main.c,$(I3F_T)/libuser.so,-L$(I3F_T) -luser -lcore))
$(eval $(call i3f_exe,$(I3F_T)/prog_gdb,$(I3F_S)/main.c,$(I3F_T)/libuser.so,\
	-DEXE_GREET -L$(I3F_T) -luser -lcore -Wl$(i3f_comma)--dynamic-linker=$(I3F_LOADER)))
$(eval $(call i3f_opt,$(I3F_T),libcore.so libuser.so libpre.so prog_exe prog_plain prog_gdb))

# ------------------------------------------------------ copy relocations --
# i386 PIE reaches data through the GOT: only a fixed-address executable
# gets R_386_COPY.
I3F_T := $(I3F)/copyreloc
I3F_S := $(I3F_FPS)/copyreloc
$(eval $(call i3f_lib,$(I3F_T)/libcr.so,$(I3F_S)/libcr.c))
$(eval $(call i3f_lib,$(I3F_T)/libcruser.so,$(I3F_S)/libcruser.c,$(I3F_T)/libcr.so,-L$(I3F_T) -lcr))
$(eval $(call i3f_exe,$(I3F_T)/prog,$(I3F_S)/main.c,$(I3F_T)/libcruser.so,-fno-pie -no-pie -L$(I3F_T) -lcruser -lcr))
$(eval $(call i3f_opt,$(I3F_T),libcr.so libcruser.so prog))

# ---------------------------------------------------- weak and vague --
I3F_T := $(I3F)/weak
I3F_S := $(I3F_FPS)/weak
$(eval $(call i3f_lib,$(I3F_T)/libw1.so,$(I3F_S)/libw1.c))
$(eval $(call i3f_lib,$(I3F_T)/libw2.so,$(I3F_S)/libw2.c))
$(eval $(call i3f_lib,$(I3F_T)/libw3.so,$(I3F_S)/libw3.c,$(I3F_T)/libw1.so $(I3F_T)/libw2.so,-L$(I3F_T) -lw1 -lw2))
$(eval $(call i3f_exe,$(I3F_T)/prog,$(I3F_S)/main.c,$(I3F_T)/libw3.so,-L$(I3F_T) -lw3 -lw1 -lw2))
$(eval $(call i3f_opt,$(I3F_T),libw1.so libw2.so libw3.so prog))

# ------------------------------------ one symbol in two needed libraries --
# prog: libd2 before libd1 in load order, libd12 needs both. prog_d2only:
# libd2only needs libd2 alone, so its direct binding differs by design
# from the global scope (libd1 first): what verify mode must report.
I3F_T := $(I3F)/dup
I3F_S := $(I3F_FPS)/dup
$(eval $(call i3f_lib,$(I3F_T)/libd1.so,$(I3F_S)/libd.c,,-DWHICH=libd1 -DWHICH_NUM=1))
$(eval $(call i3f_lib,$(I3F_T)/libd2.so,$(I3F_S)/libd.c,,-DWHICH=libd2 -DWHICH_NUM=2))
$(eval $(call i3f_lib,$(I3F_T)/libd12.so,$(I3F_S)/libd12.c,$(I3F_T)/libd1.so $(I3F_T)/libd2.so,-L$(I3F_T) -ld1 -ld2))
$(eval $(call i3f_lib,$(I3F_T)/libd2only.so,$(I3F_S)/libd12.c,$(I3F_T)/libd2.so,-L$(I3F_T) -ld2))
$(eval $(call i3f_exe,$(I3F_T)/prog,$(I3F_S)/main.c,$(I3F_T)/libd12.so,-L$(I3F_T) -ld12 -ld2 -ld1))
$(eval $(call i3f_exe,$(I3F_T)/prog_d2only,$(I3F_S)/main.c,$(I3F_T)/libd2only.so,-L$(I3F_T) -ld1 -ld2only -Wl$(i3f_comma)-rpath-link$(i3f_comma)$(I3F_T)))
$(eval $(call i3f_opt,$(I3F_T),libd1.so libd2.so libd12.so libd2only.so prog prog_d2only))

# ------------------------------------------ stale table (moved symbol) --
# new/ holds libs1 and libs2 rebuilt after optimization, moved_fn now in libs2.
I3F_T := $(I3F)/stale
I3F_S := $(I3F_FPS)/stale
$(eval $(call i3f_lib,$(I3F_T)/libs1.so,$(I3F_S)/libs1.c,,-DHAVE_MOVED))
$(eval $(call i3f_lib,$(I3F_T)/libs2.so,$(I3F_S)/libs2.c))
$(eval $(call i3f_lib,$(I3F_T)/libsu.so,$(I3F_S)/libsu.c,$(I3F_T)/libs1.so $(I3F_T)/libs2.so,-L$(I3F_T) -ls1 -ls2))
$(eval $(call i3f_exe,$(I3F_T)/prog,$(I3F_S)/main.c,$(I3F_T)/libsu.so,-L$(I3F_T) -lsu -ls1 -ls2))
$(eval $(call i3f_opt,$(I3F_T),libs1.so libs2.so libsu.so prog))
$(eval $(call i3f_lib,$(I3F_T)/new/libs1.so,$(I3F_S)/libs1.c))
$(eval $(call i3f_lib,$(I3F_T)/new/libs2.so,$(I3F_S)/libs2.c,,-DHAVE_MOVED))

# ---------------------------------------------------------------- dlopen --
I3F_T := $(I3F)/dlopen
I3F_S := $(I3F_FPS)/dlopen
$(eval $(call i3f_lib,$(I3F_T)/libdlb.so,$(I3F_S)/libdlb.c))
$(eval $(call i3f_lib,$(I3F_T)/libdla.so,$(I3F_S)/libdla.c,$(I3F_T)/libdlb.so,-L$(I3F_T) -ldlb))
$(eval $(call i3f_lib,$(I3F_T)/libdlc.so,$(I3F_S)/libdlc.c,$(I3F_T)/libdlb.so,-L$(I3F_T) -ldlb))
$(eval $(call i3f_exe,$(I3F_T)/prog,$(I3F_S)/main.c))
$(eval $(call i3f_exe,$(I3F_T)/prog_gdb,$(I3F_S)/main.c,,-Wl$(i3f_comma)--dynamic-linker=$(I3F_LOADER)))
$(eval $(call i3f_opt,$(I3F_T),libdla.so libdlb.so libdlc.so prog prog_gdb))

# ------------------------------------------------------------------- TLS --
# libt2: general-dynamic (___tls_get_addr), libt3: TLS descriptors.
I3F_T := $(I3F)/tls
I3F_S := $(I3F_FPS)/tls
$(eval $(call i3f_lib,$(I3F_T)/libt1.so,$(I3F_S)/libt1.c))
$(eval $(call i3f_lib,$(I3F_T)/libt2.so,$(I3F_S)/libt2.c,$(I3F_T)/libt1.so,-mtls-dialect=gnu -L$(I3F_T) -lt1))
$(eval $(call i3f_lib,$(I3F_T)/libt3.so,$(I3F_S)/libt3.c,$(I3F_T)/libt1.so,-mtls-dialect=gnu2 -L$(I3F_T) -lt1))
$(eval $(call i3f_exe,$(I3F_T)/prog,$(I3F_S)/main.c,$(I3F_T)/libt2.so $(I3F_T)/libt3.so,-pthread -L$(I3F_T) -lt2 -lt3 -lt1))
$(eval $(call i3f_opt,$(I3F_T),libt1.so libt2.so libt3.so prog))

# -------------------------------------------------------- SysV hash only --
# The interposer fixture linked with DT_HASH alone (older i386 toolchains'
# default): linkopt then records SysV hash values too.
I3F_T := $(I3F)/sysv
I3F_S := $(I3F_FPS)/interpose
I3F_SYSV := -Wl$(i3f_comma)--hash-style=sysv
$(eval $(call i3f_lib,$(I3F_T)/libcore.so,$(I3F_S)/libcore.c,,$(I3F_SYSV)))
$(eval $(call i3f_lib,$(I3F_T)/libuser.so,$(I3F_S)/libuser.c,$(I3F_T)/libcore.so,$(I3F_SYSV) -L$(I3F_T) -lcore))
$(eval $(call i3f_exe,$(I3F_T)/prog_exe,$(I3F_S)/main.c,$(I3F_T)/libuser.so,$(I3F_SYSV) -DEXE_GREET -L$(I3F_T) -luser -lcore))
$(eval $(call i3f_opt,$(I3F_T),libcore.so libuser.so prog_exe))

# ---------------------------------------- TLS in dlopened libraries --
# tls_dlopen loads the optimized libt2 (general dynamic) and libt3 (TLS
# descriptors) after threads exist: dynamic TLS, not the static block.
$(eval $(call i3f_exe,$(I3F)/tls/prog_dl,$(I3F_SRC)/tls_dlopen.c,,-pthread))
$(I3F)/tls/opt/prog_dl: $(I3F)/tls/prog_dl $(I3F)/tls/opt/.stamp
	$(Q)cp $< $@ && $(I3F_LINKOPT) -L $(I3F)/tls/opt $@
I3F_FIXTURES += $(I3F)/tls/opt/prog_dl

# ------------------------------------------------------- corrupted tables --
# corrupt/FIELD/libuser.so: interpose/opt/libuser.so with FIELD broken.
I3F_CORRUPT_FIELDS := boundto_range boundto_notneeded syminfo_addr syminsz_small \
	syminent_wrong magic version hdr_size_small hdr_size_big nsyms gnu_off \
	gnu_off_unaligned tablesz_big table_addr hint_off hints_wrong needed_id

$(I3F)/qbcorrupt32: $(I3F_SRC)/qbcorrupt32.c tests/i386_fast.mk
	@mkdir -p $(@D)
	@echo "HOSTCC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $<
I3F_DEPFILES += $(I3F)/qbcorrupt32.d

$(I3F_CORRUPT_FIELDS:%=$(I3F)/corrupt/%/libuser.so): $(I3F)/corrupt/%/libuser.so: $(I3F)/interpose/opt/.stamp $(I3F)/qbcorrupt32
	@mkdir -p $(@D)
	$(Q)$(I3F)/qbcorrupt32 $* $(I3F)/interpose/opt/libuser.so $@
I3F_FIXTURES += $(I3F_CORRUPT_FIELDS:%=$(I3F)/corrupt/%/libuser.so)

# SysV hash values exist only in the SysV-only build.
$(I3F)/corrupt/sysv_off/sysv/libuser.so: $(I3F)/sysv/opt/.stamp $(I3F)/qbcorrupt32
	@mkdir -p $(@D)
	$(Q)$(I3F)/qbcorrupt32 sysv_off $(I3F)/sysv/opt/libuser.so $@
I3F_FIXTURES += $(I3F)/corrupt/sysv_off/sysv/libuser.so

# ------------------------------------- generated 50-library application --
# Built fixed-address so that the executable's data references become
# copy relocations, as they do in an x86_64 PIE.
$(I3F)/app/.stamp: $(I3F_FPS)/gen_app.sh $(I3F_LINKOPT) tests/i386_fast.mk
	@echo "GEN $(I3F)/app (50 i386 libraries)"
	$(Q)sh $(I3F_FPS)/gen_app.sh $(I3F)/app 50 "$(I3F_CC) -fno-pie -no-pie" $(I3F_LINKOPT) && touch $@
I3F_FIXTURES += $(I3F)/app/.stamp

# ------------------------------------------------------ the test programs --
I3F_SUITES := bind tables app tools
I3F_BINS := $(I3F_SUITES:%=$(B)/tests/test_i386_fast_%)

# tests/fastpath/fpcommon.c again, pointed at the i386 loader and fixtures.
$(I3F)/fpcommon.o: $(I3F_FPS)/fpcommon.c tests/i386_fast.mk
	@mkdir -p $(@D)
	@echo "CC $< (i386)"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DFP_LOADER='"$(I3F_LOADER)"' \
		-DFP_FIXTURES='"$(abspath $(I3F))"' -DFP_MUSL_LDSO='"$(I3F_MUSL_LDSO)"' \
		-DFP_LINKOPT='"$(abspath $(I3F_LINKOPT))"' -c -o $@ $<

$(I3F)/harness.o: tests/harness.c
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -c -o $@ $<

$(I3F)/i3fhelp.o: $(I3F_SRC)/i3fhelp.c
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -I$(I3F_FPS) -c -o $@ $<

$(I3F_BINS:=.o): $(B)/tests/test_i386_fast_%.o: tests/test_i386_fast_%.c tests/i386_fast.mk
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -I$(I3F_FPS) -I$(I3F_SRC) -DI3F_MUSL_LDSO='"$(I3F_MUSL_LDSO)"' -c -o $@ $<

$(I3F_BINS): $(B)/tests/test_i386_fast_%: $(B)/tests/test_i386_fast_%.o $(I3F)/fpcommon.o $(I3F)/harness.o $(I3F)/i3fhelp.o
	@echo "LD $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

# The suites alone: make check-i386-fast
.PHONY: check-i386-fast
check-i386-fast: $(B)/lib/ld-quickbind-i386.so.1 $(I3F_FIXTURES) $(I3F_BINS)
	@fail=0; for t in $(I3F_BINS); do echo "== $$t"; $$t --jobs=2 || fail=1; done; \
	[ $$fail = 0 ] && echo "check-i386-fast: passed" || { echo "check-i386-fast: FAILURES"; exit 1; }

CHECK_DEPS += $(I3F_FIXTURES)
CHECK_BINS += $(I3F_BINS)

-include $(I3F_DEPFILES) $(I3F)/fpcommon.d $(I3F)/harness.d $(I3F)/i3fhelp.d $(I3F_SUITES:%=$(B)/tests/test_i386_fast_%.d)
endif
