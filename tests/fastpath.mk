# Integration tests of the loader's fast paths (direct binding, precomputed
# hashes, symbol cache): real musl programs and libraries from
# tests/fastpath/, built once plainly (run under musl's loader: the
# reference semantics) and copied into opt/ where linkopt adds its tables
# (run under quickbind by direct invocation).

FPT := $(B)/tests/fastpath
FPS := tests/fastpath
FP_LOADER := $(abspath $(LOADER))
FP_LINKOPT := $(B)/bin/linkopt
FP_MUSL_LDSO := /lib/ld-musl-x86_64.so.1
FP_CC := musl-gcc
FP_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
FP_FIXTURES :=
FP_DEPFILES :=
fp_comma := ,

# $(call fp_lib,OUT.so,SOURCES,PREREQUISITES,FLAGS): soname = file name.
define fp_lib
$(1): $(2) $(3) tests/fastpath.mk
	@mkdir -p $$(@D)
	@echo "CC[fixture] $$@"
	$(Q)$(FP_CC) $(FP_CFLAGS) -fPIC -shared -Wl,-soname,$$(@F) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
FP_FIXTURES += $(1)
FP_DEPFILES += $(1).d
endef

# $(call fp_exe,OUT,SOURCES,PREREQUISITES,FLAGS)
define fp_exe
$(1): $(2) $(3) tests/fastpath.mk
	@mkdir -p $$(@D)
	@echo "CC[fixture] $$@"
	$(Q)$(FP_CC) $(FP_CFLAGS) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
FP_FIXTURES += $(1)
FP_DEPFILES += $(1).d
endef

# $(call fp_opt,DIR,FILES): DIR/opt/ holds copies of DIR/FILES optimized
# together by linkopt (needed libraries searched in DIR/opt first).
define fp_opt
$(1)/opt/.stamp: $(addprefix $(1)/,$(2)) $(FP_LINKOPT)
	@echo "LINKOPT $(1)/opt"
	$(Q)rm -rf $(1)/opt && mkdir -p $(1)/opt && cp $(addprefix $(1)/,$(2)) $(1)/opt/ && \
		$(FP_LINKOPT) -L $(1)/opt $(addprefix $(1)/opt/,$(2)) && touch $$@
FP_FIXTURES += $(1)/opt/.stamp
endef

# ---------------------------------------------------------- interposers --
# prog_exe defines greet() (the executable interposes), prog_plain does not
# (libpre.so interposes through LD_PRELOAD).
FP_T := $(FPT)/interpose
FP_S := $(FPS)/interpose
$(eval $(call fp_lib,$(FP_T)/libcore.so,$(FP_S)/libcore.c))
$(eval $(call fp_lib,$(FP_T)/libuser.so,$(FP_S)/libuser.c,$(FP_T)/libcore.so,-L$(FP_T) -lcore))
$(eval $(call fp_lib,$(FP_T)/libpre.so,$(FP_S)/libpre.c))
$(eval $(call fp_exe,$(FP_T)/prog_exe,$(FP_S)/main.c,$(FP_T)/libuser.so,-DEXE_GREET -L$(FP_T) -luser -lcore))
$(eval $(call fp_exe,$(FP_T)/prog_plain,$(FP_S)/main.c,$(FP_T)/libuser.so,-L$(FP_T) -luser -lcore))
$(eval $(call fp_opt,$(FP_T),libcore.so libuser.so libpre.so prog_exe prog_plain))

# ------------------------------------------------------ copy relocations --
FP_T := $(FPT)/copyreloc
FP_S := $(FPS)/copyreloc
$(eval $(call fp_lib,$(FP_T)/libcr.so,$(FP_S)/libcr.c))
$(eval $(call fp_lib,$(FP_T)/libcruser.so,$(FP_S)/libcruser.c,$(FP_T)/libcr.so,-L$(FP_T) -lcr))
$(eval $(call fp_exe,$(FP_T)/prog,$(FP_S)/main.c,$(FP_T)/libcruser.so,-L$(FP_T) -lcruser -lcr))
$(eval $(call fp_opt,$(FP_T),libcr.so libcruser.so prog))

# ---------------------------------------------------- weak and vague --
FP_T := $(FPT)/weak
FP_S := $(FPS)/weak
$(eval $(call fp_lib,$(FP_T)/libw1.so,$(FP_S)/libw1.c))
$(eval $(call fp_lib,$(FP_T)/libw2.so,$(FP_S)/libw2.c))
$(eval $(call fp_lib,$(FP_T)/libw3.so,$(FP_S)/libw3.c,$(FP_T)/libw1.so $(FP_T)/libw2.so,-L$(FP_T) -lw1 -lw2))
$(eval $(call fp_exe,$(FP_T)/prog,$(FP_S)/main.c,$(FP_T)/libw3.so,-L$(FP_T) -lw3 -lw1 -lw2))
$(eval $(call fp_opt,$(FP_T),libw1.so libw2.so libw3.so prog))

# ------------------------------------ one symbol in two needed libraries --
# prog needs libd12, libd2, libd1 (libd2 first in load order); libd12 needs
# both. prog_d2only needs libd1 and libd2only, which needs libd2 alone: its
# reference is bound directly to libd2 while the global scope says libd1.
FP_T := $(FPT)/dup
FP_S := $(FPS)/dup
$(eval $(call fp_lib,$(FP_T)/libd1.so,$(FP_S)/libd.c,,-DWHICH=libd1 -DWHICH_NUM=1))
$(eval $(call fp_lib,$(FP_T)/libd2.so,$(FP_S)/libd.c,,-DWHICH=libd2 -DWHICH_NUM=2))
$(eval $(call fp_lib,$(FP_T)/libd12.so,$(FP_S)/libd12.c,$(FP_T)/libd1.so $(FP_T)/libd2.so,-L$(FP_T) -ld1 -ld2))
$(eval $(call fp_lib,$(FP_T)/libd2only.so,$(FP_S)/libd12.c,$(FP_T)/libd2.so,-L$(FP_T) -ld2))
$(eval $(call fp_exe,$(FP_T)/prog,$(FP_S)/main.c,$(FP_T)/libd12.so,-L$(FP_T) -ld12 -ld2 -ld1))
$(eval $(call fp_exe,$(FP_T)/prog_d2only,$(FP_S)/main.c,$(FP_T)/libd2only.so,-L$(FP_T) -ld1 -ld2only -Wl$(fp_comma)-rpath-link$(fp_comma)$(FP_T)))
$(eval $(call fp_opt,$(FP_T),libd1.so libd2.so libd12.so libd2only.so prog prog_d2only))

# ------------------------------------------ stale table (moved symbol) --
# linkopt sees moved_fn in libs1; new/ holds libs1 and libs2 rebuilt with
# moved_fn in libs2.
FP_T := $(FPT)/stale
FP_S := $(FPS)/stale
$(eval $(call fp_lib,$(FP_T)/libs1.so,$(FP_S)/libs1.c,,-DHAVE_MOVED))
$(eval $(call fp_lib,$(FP_T)/libs2.so,$(FP_S)/libs2.c))
$(eval $(call fp_lib,$(FP_T)/libsu.so,$(FP_S)/libsu.c,$(FP_T)/libs1.so $(FP_T)/libs2.so,-L$(FP_T) -ls1 -ls2))
$(eval $(call fp_exe,$(FP_T)/prog,$(FP_S)/main.c,$(FP_T)/libsu.so,-L$(FP_T) -lsu -ls1 -ls2))
$(eval $(call fp_opt,$(FP_T),libs1.so libs2.so libsu.so prog))
$(eval $(call fp_lib,$(FP_T)/new/libs1.so,$(FP_S)/libs1.c))
$(eval $(call fp_lib,$(FP_T)/new/libs2.so,$(FP_S)/libs2.c,,-DHAVE_MOVED))

# ---------------------------------------------------------------- dlopen --
FP_T := $(FPT)/dlopen
FP_S := $(FPS)/dlopen
$(eval $(call fp_lib,$(FP_T)/libdlb.so,$(FP_S)/libdlb.c))
$(eval $(call fp_lib,$(FP_T)/libdla.so,$(FP_S)/libdla.c,$(FP_T)/libdlb.so,-L$(FP_T) -ldlb))
$(eval $(call fp_lib,$(FP_T)/libdlc.so,$(FP_S)/libdlc.c,$(FP_T)/libdlb.so,-L$(FP_T) -ldlb))
$(eval $(call fp_exe,$(FP_T)/prog,$(FP_S)/main.c))
$(eval $(call fp_opt,$(FP_T),libdla.so libdlb.so libdlc.so prog))

# ------------------------------------------------------------------- TLS --
FP_T := $(FPT)/tls
FP_S := $(FPS)/tls
$(eval $(call fp_lib,$(FP_T)/libt1.so,$(FP_S)/libt1.c))
$(eval $(call fp_lib,$(FP_T)/libt2.so,$(FP_S)/libt2.c,$(FP_T)/libt1.so,-L$(FP_T) -lt1))
$(eval $(call fp_lib,$(FP_T)/libt3.so,$(FP_S)/libt3.c,$(FP_T)/libt1.so,-mtls-dialect=gnu2 -L$(FP_T) -lt1))
$(eval $(call fp_exe,$(FP_T)/prog,$(FP_S)/main.c,$(FP_T)/libt2.so $(FP_T)/libt3.so,-pthread -L$(FP_T) -lt2 -lt3 -lt1))
$(eval $(call fp_opt,$(FP_T),libt1.so libt2.so libt3.so prog))

# ------------------------------------------------------- corrupted tables --
# corrupt/FIELD/libuser.so: interpose/opt/libuser.so with FIELD broken.
FP_CORRUPT_FIELDS := boundto_range boundto_notneeded syminfo_addr syminsz_small \
	syminent_wrong magic version hdr_size_small hdr_size_big nsyms gnu_off \
	gnu_off_unaligned sysv_off tablesz_big table_addr hint_off hints_wrong needed_id

$(FPT)/qbcorrupt: $(FPS)/qbcorrupt.c
	@mkdir -p $(@D)
	@echo "HOSTCC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $<
FP_DEPFILES += $(FPT)/qbcorrupt.d

$(FP_CORRUPT_FIELDS:%=$(FPT)/corrupt/%/libuser.so): $(FPT)/corrupt/%/libuser.so: $(FPT)/interpose/opt/.stamp $(FPT)/qbcorrupt
	@mkdir -p $(@D)
	$(Q)$(FPT)/qbcorrupt $* $(FPT)/interpose/opt/libuser.so $@
FP_FIXTURES += $(FP_CORRUPT_FIELDS:%=$(FPT)/corrupt/%/libuser.so)

# ------------------------------------- generated 50-library application --
FP_APP_N := 50
$(FPT)/app/.stamp: $(FPS)/gen_app.sh $(FP_LINKOPT) tests/fastpath.mk
	@echo "GEN $(FPT)/app ($(FP_APP_N) libraries)"
	$(Q)sh $(FPS)/gen_app.sh $(FPT)/app $(FP_APP_N) $(FP_CC) $(FP_LINKOPT) && touch $@
FP_FIXTURES += $(FPT)/app/.stamp

# ------------------------------------------------------ the test programs --
FP_SUITES := bind tables app
FP_BINS := $(FP_SUITES:%=$(B)/tests/test_fastpath_%)
FP_OBJS := $(B)/tests/harness.o $(FPT)/fpcommon.o

$(FPT)/fpcommon.o: $(FPS)/fpcommon.c tests/fastpath.mk
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DFP_LOADER='"$(FP_LOADER)"' \
		-DFP_FIXTURES='"$(abspath $(FPT))"' -DFP_MUSL_LDSO='"$(FP_MUSL_LDSO)"' \
		-DFP_LINKOPT='"$(abspath $(FP_LINKOPT))"' -c -o $@ $<

$(FP_BINS:=.o): $(B)/tests/test_fastpath_%.o: tests/test_fastpath_%.c
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -I$(FPS) -c -o $@ $<

$(FP_BINS): $(B)/tests/test_fastpath_%: $(B)/tests/test_fastpath_%.o $(FP_OBJS)
	@echo "LD $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

# The suites alone: make check-fastpath
.PHONY: check-fastpath
check-fastpath: $(LOADER) $(FP_FIXTURES) $(FP_BINS)
	@fail=0; for t in $(FP_BINS); do echo "== $$t"; $$t --jobs=2 || fail=1; done; \
	[ $$fail = 0 ] && echo "check-fastpath: passed" || { echo "check-fastpath: FAILURES"; exit 1; }

-include $(FP_DEPFILES) $(FPT)/fpcommon.d $(FP_SUITES:%=$(B)/tests/test_fastpath_%.d)

CHECK_DEPS += $(FP_FIXTURES)
CHECK_BINS += $(FP_BINS)
