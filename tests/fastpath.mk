# Integration tests of the loader's fast paths (direct binding, precomputed
# hashes, symbol cache, definition hints): real musl programs and libraries
# from tests/fastpath/, built once plainly (run under musl's loader: the
# reference semantics) and copied into opt/ where linkopt adds its tables
# (run under quickbind by direct invocation). A copy is made again when
# the loader changes: a program's launch record names the loader build.
#
# Everything is built once per architecture: x86_64 always, i386 when
# configure enabled it. The test sources are the same for both; fpcommon.h
# holds what differs (FP_ARCH_I386 is defined for i386), tests/lib/compare.c
# is compiled with each architecture's loader and fixture root.
#   make check-fastpath        both architectures (build/tests/ARCH/test_fastpath_*)
#   make check-fastpath-i386   i386 alone (check-fastpath-x86_64: x86_64 alone)

FPS := tests/fastpath
FP_LINKOPT := $(B)/bin/linkopt
FP_SRC := $(FPS)
FP_MK := tests/fastpath.mk
FP_CHECK := check-fastpath
FP_TESTS := $(addprefix tests/test_fastpath_,bind tables app tools unload prefetch record)
FP_MUSL := yes
FP_testflags = $(FP_DEFS_$(1))
FP_APP_N := 50
FP_DEPFILES :=
fp_comma := ,

FP_ARCHS := x86_64 $(filter i386,$(ARCHS))

FPT_x86_64 := $(B)/tests/fastpath
FP_DIR_x86_64 := $(FPT_x86_64)
FP_CC_x86_64 := $(MUSL_CC_x86_64)

# i386 PIE reaches data through the GOT: only a fixed-address executable
# gets copy relocations, as an x86_64 PIE does.
FPT_i386 := $(B)/tests/i386fast
FP_DIR_i386 := $(FPT_i386)
FP_CC_i386 := $(MUSL_CC_i386)
FP_NOPIE_i386 := -fno-pie -no-pie
FP_DEFS_i386 := -DFP_ARCH_I386

# $(call fp_lib,ARCH,OUT.so,SOURCES,PREREQUISITES,FLAGS) and
# $(call fp_exe,ARCH,OUT,SOURCES,PREREQUISITES,FLAGS): fixtures of
# tests/suite.mk; a program has musl's loader as PT_INTERP (runs under
# quickbind by direct invocation).
fp_lib = $(call suite_lib,FP,$(1),$(2),$(3),$(4),$(5))
fp_exe = $(call suite_prog,FP,$(1),$(2),$(3),$(4),$(5))
fp_loader = $(call suite_loader,FP,$(1))

# $(call fp_opt,ARCH,DIR,FILES[,ALONE]): DIR/opt/ holds copies of DIR/FILES
# optimized together by linkopt (needed libraries searched in DIR/opt first);
# ALONE, a subset, is optimized first in a run of its own, without the
# programs (so file by file, not as a program loads it).
define fp_opt
$(FPT_$(1))/$(2)/opt/.stamp: $(addprefix $(FPT_$(1))/$(2)/,$(3)) $(FP_LINKOPT) $(B)/lib/ld-quickbind-$(1).so.1
	@echo "LINKOPT $(FPT_$(1))/$(2)/opt"
	$(Q)rm -rf $(FPT_$(1))/$(2)/opt && mkdir -p $(FPT_$(1))/$(2)/opt && \
		cp $(addprefix $(FPT_$(1))/$(2)/,$(3)) $(FPT_$(1))/$(2)/opt/ && \
		$(if $(4),$(FP_LINKOPT) -L $(FPT_$(1))/$(2)/opt $(addprefix $(FPT_$(1))/$(2)/opt/,$(4)) && ) \
		$(FP_LINKOPT) -L $(FPT_$(1))/$(2)/opt $(addprefix $(FPT_$(1))/$(2)/opt/,$(filter-out $(4),$(3))) && touch $$@
FP_FIXTURES_$(1) += $(FPT_$(1))/$(2)/opt/.stamp
endef

# corrupt/FIELD/libuser.so: interpose/opt/libuser.so with FIELD broken by
# qbcorrupt; corrupt/sysv_off/sysv/libuser.so: the same for the SysV-only
# build, the one whose table has SysV hash values.
FP_SCOPE_CORRUPT := definers_range definer_hints_range
FP_CORRUPT_FIELDS := boundto_range boundto_notneeded syminfo_addr syminsz_small \
	syminent_wrong magic version hdr_size_small hdr_size_big nsyms gnu_off \
	gnu_off_unaligned sysv_off_claimed tablesz_big table_addr hint_off hints_wrong needed_id \
	hints_range hints_low si_flags reloc_offset reloc_in_tables

# $(call fp_fixtures,ARCH): every fixture of one architecture.
define fp_fixtures
# ---------------------------------------------------------- interposers --
# prog_exe defines greet() (the executable interposes), prog_plain does not
# (libpre.so interposes through LD_PRELOAD); prog_gdb is prog_exe with
# quickbind's loader as PT_INTERP, for gdb and the kernel.
$(call fp_lib,$(1),interpose/libcore.so,interpose/libcore.c)
$(call fp_lib,$(1),interpose/libuser.so,interpose/libuser.c,interpose/libcore.so,-lcore)
$(call fp_lib,$(1),interpose/libpre.so,interpose/libpre.c)
$(call fp_exe,$(1),interpose/prog_exe,interpose/main.c,interpose/libuser.so,-DEXE_GREET -luser -lcore)
$(call fp_exe,$(1),interpose/prog_plain,interpose/main.c,interpose/libuser.so,-luser -lcore)
$(call fp_exe,$(1),interpose/prog_gdb,interpose/main.c,interpose/libuser.so,\
	-DEXE_GREET -luser -lcore -Wl$(fp_comma)--dynamic-linker=$(call fp_loader,$(1)))
$(call fp_opt,$(1),interpose,libcore.so libuser.so libpre.so prog_exe prog_plain prog_gdb)

# ------------------------------------------------------ copy relocations --
$(call fp_lib,$(1),copyreloc/libcr.so,copyreloc/libcr.c)
$(call fp_lib,$(1),copyreloc/libcruser.so,copyreloc/libcruser.c,copyreloc/libcr.so,-lcr)
$(call fp_exe,$(1),copyreloc/prog,copyreloc/main.c,copyreloc/libcruser.so,$(FP_NOPIE_$(1)) -lcruser -lcr)
$(call fp_opt,$(1),copyreloc,libcr.so libcruser.so prog)

# ---------------------------------------------------- weak and vague --
$(call fp_lib,$(1),weak/libw1.so,weak/libw1.c)
$(call fp_lib,$(1),weak/libw2.so,weak/libw2.c)
$(call fp_lib,$(1),weak/libw3.so,weak/libw3.c,weak/libw1.so weak/libw2.so,-lw1 -lw2)
$(call fp_exe,$(1),weak/prog,weak/main.c,weak/libw3.so,-lw3 -lw1 -lw2)
$(call fp_opt,$(1),weak,libw1.so libw2.so libw3.so prog)
# a preload defining the vague names; libw1 as built (no linkopt table);
# libw3 with its scope definers broken
$(call fp_lib,$(1),weak/libwpre.so,weak/libwpre.c)
# a library ahead of the definer whose bloom filter lets the vague names
# through
$(call fp_lib,$(1),weak/libwfp.so,weak/libwfp.c)
$(call fp_exe,$(1),weak/prog_fp,weak/main.c,weak/libw3.so weak/libwfp.so,-lw3 -lwfp -lw1 -lw2)
# libw3 loaded, unloaded and loaded again by dlopen
$(call fp_exe,$(1),weak/dlprog,weak/dlmain.c)
$(FPT_$(1))/weak/orig/libw1.so: $(FPT_$(1))/weak/libw1.so
	@mkdir -p $$(@D)
	$(Q)cp $$< $$@
FP_FIXTURES_$(1) += $(FPT_$(1))/weak/orig/libw1.so
$(FP_SCOPE_CORRUPT:%=$(FPT_$(1))/weak/%/libw3.so): $(FPT_$(1))/weak/%/libw3.so: \
		$(FPT_$(1))/weak/opt/.stamp $(FPT_x86_64)/qbcorrupt
	@mkdir -p $$(@D)
	$(Q)$(FPT_x86_64)/qbcorrupt $$* $(FPT_$(1))/weak/opt/libw3.so $$@
FP_FIXTURES_$(1) += $(FP_SCOPE_CORRUPT:%=$(FPT_$(1))/weak/%/libw3.so)
# w2/: the libraries as optimized for prog, and prog_w2, which loads libw2
# ahead of libw1, optimized alone: libw3's definers do not hold in its load
$(call fp_exe,$(1),weak/prog_w2,weak/main.c,weak/libw3.so,-lw3 -lw2 -lw1)
$(FPT_$(1))/weak/w2/.stamp: $(FPT_$(1))/weak/opt/.stamp $(FPT_$(1))/weak/prog_w2 $(FP_LINKOPT)
	@echo "LINKOPT $(FPT_$(1))/weak/w2"
	$(Q)rm -rf $(FPT_$(1))/weak/w2 && mkdir -p $(FPT_$(1))/weak/w2 && \
		cp $(addprefix $(FPT_$(1))/weak/opt/,libw1.so libw2.so libw3.so) $(FPT_$(1))/weak/prog_w2 \
			$(FPT_$(1))/weak/w2/ && \
		$(FP_LINKOPT) -L $(FPT_$(1))/weak/w2 $(FPT_$(1))/weak/w2/prog_w2 && touch $$@
FP_FIXTURES_$(1) += $(FPT_$(1))/weak/w2/.stamp

# ------------------------------------------- pages given back after start-up --
$(call fp_lib,$(1),resident/libbig.so,resident/libbig.c,,-Wl$(fp_comma)--hash-style=both)
$(call fp_exe,$(1),resident/prog,resident/main.c,resident/libbig.so,-Wl$(fp_comma)--hash-style=both -lbig)
$(call fp_exe,$(1),resident/prog_dl,resident/main.c,resident/libbig.so,-DDLOPEN)
$(call fp_opt,$(1),resident,libbig.so prog prog_dl)

# ------------------------------------------------------------ early reads --
# a/ and b/ hold two builds of libpf.so; prog is linked against a/'s,
# prog_bad needs libpfbad.so first. The tests copy them into a directory
# of their own, optimize prog there and make the files cold.
$(call fp_lib,$(1),prefetch/a/libpf.so,prefetch/libpf.c,,-DWHICH='"a"')
$(call fp_lib,$(1),prefetch/b/libpf.so,prefetch/libpf.c,,-DWHICH='"b"')
$(call fp_lib,$(1),prefetch/bad/libpfbad.so,prefetch/libpfbad.c)
$(call fp_exe,$(1),prefetch/prog,prefetch/main.c,prefetch/a/libpf.so,-L$(FPT_$(1))/prefetch/a -lpf)
$(call fp_lib,$(1),prefetch/libcn.so,prefetch/libcn.c)
$(call fp_lib,$(1),prefetch/libws.so,prefetch/libws.c,,-fno-toplevel-reorder)
$(call fp_exe,$(1),prefetch/prog_ws,prefetch/main_ws.c,prefetch/libws.so,-lws)
$(call fp_exe,$(1),prefetch/prog_cn,prefetch/main_cn.c,prefetch/libcn.so,-lcn)
$(call fp_exe,$(1),prefetch/prog_bad,prefetch/main.c,prefetch/a/libpf.so prefetch/bad/libpfbad.so,\
	-DWITH_BAD -L$(FPT_$(1))/prefetch/bad -lpfbad -L$(FPT_$(1))/prefetch/a -lpf)
# prog_interp: prog run by the kernel through quickbind (secure mode)
$(call fp_exe,$(1),prefetch/prog_interp,prefetch/main.c,prefetch/a/libpf.so,\
	-L$(FPT_$(1))/prefetch/a -lpf -Wl$(fp_comma)--dynamic-linker=$(call fp_loader,$(1)))

# ------------------------------------ one symbol in two needed libraries --
# prog needs libd12, libd2, libd1 (libd2 first in load order); libd12 needs
# both. prog_d2only needs libd1 and libd2only, which needs libd2 alone: its
# reference is bound directly to libd2 while the global scope says libd1.
$(call fp_lib,$(1),dup/libd1.so,dup/libd.c,,-DWHICH=libd1 -DWHICH_NUM=1)
$(call fp_lib,$(1),dup/libd2.so,dup/libd.c,,-DWHICH=libd2 -DWHICH_NUM=2)
$(call fp_lib,$(1),dup/libd12.so,dup/libd12.c,dup/libd1.so dup/libd2.so,-ld1 -ld2)
$(call fp_lib,$(1),dup/libd2only.so,dup/libd12.c,dup/libd2.so,-ld2)
$(call fp_exe,$(1),dup/prog,dup/main.c,dup/libd12.so,-ld12 -ld2 -ld1)
$(call fp_exe,$(1),dup/prog_d2only,dup/main.c,dup/libd2only.so,\
	-ld1 -ld2only -Wl$(fp_comma)-rpath-link$(fp_comma)$(FPT_$(1))/dup)
$(call fp_opt,$(1),dup,libd1.so libd2.so libd12.so libd2only.so prog prog_d2only,libd1.so libd2.so libd12.so libd2only.so)

# ------------------------------------------ stale table (moved symbol) --
# linkopt sees moved_fn in libs1; new/ holds libs1 and libs2 rebuilt with
# moved_fn in libs2.
$(call fp_lib,$(1),stale/libs1.so,stale/libs1.c,,-DHAVE_MOVED)
$(call fp_lib,$(1),stale/libs2.so,stale/libs2.c)
$(call fp_lib,$(1),stale/libsu.so,stale/libsu.c,stale/libs1.so stale/libs2.so,-ls1 -ls2)
$(call fp_exe,$(1),stale/prog,stale/main.c,stale/libsu.so,-lsu -ls1 -ls2)
$(call fp_opt,$(1),stale,libs1.so libs2.so libsu.so prog)
$(call fp_lib,$(1),stale/new/libs1.so,stale/libs1.c)
$(call fp_lib,$(1),stale/new/libs2.so,stale/libs2.c,,-DHAVE_MOVED)

# ---------------------------------------------------------------- dlopen --
$(call fp_lib,$(1),dlopen/libdlb.so,dlopen/libdlb.c)
$(call fp_lib,$(1),dlopen/libdla.so,dlopen/libdla.c,dlopen/libdlb.so,-ldlb)
$(call fp_lib,$(1),dlopen/libdlc.so,dlopen/libdlc.c,dlopen/libdlb.so,-ldlb)
$(call fp_exe,$(1),dlopen/prog,dlopen/main.c)
$(call fp_exe,$(1),dlopen/prog_gdb,dlopen/main.c,,-Wl$(fp_comma)--dynamic-linker=$(call fp_loader,$(1)))
$(call fp_opt,$(1),dlopen,libdla.so libdlb.so libdlc.so prog prog_gdb)

# ------------------------------------------------------------------- TLS --
# libt2: general dynamic (__tls_get_addr), libt3: TLS descriptors.
# prog_dlthreads dlopens the optimized libt2 and libt3 after threads
# exist: dynamic TLS, not the static block.
$(call fp_lib,$(1),tls/libt1.so,tls/libt1.c)
$(call fp_lib,$(1),tls/libt2.so,tls/libt2.c,tls/libt1.so,-mtls-dialect=gnu -lt1)
$(call fp_lib,$(1),tls/libt3.so,tls/libt3.c,tls/libt1.so,-mtls-dialect=gnu2 -lt1)
$(call fp_exe,$(1),tls/prog,tls/main.c,tls/libt2.so tls/libt3.so,-pthread -lt2 -lt3 -lt1)
$(call fp_opt,$(1),tls,libt1.so libt2.so libt3.so prog)
$(call fp_exe,$(1),tls/prog_dlthreads,tls/dlopen_threads.c,,-pthread)
$(FPT_$(1))/tls/opt/prog_dlthreads: $(FPT_$(1))/tls/prog_dlthreads $(FPT_$(1))/tls/opt/.stamp
	$(Q)cp $$< $$@ && $(FP_LINKOPT) -L $(FPT_$(1))/tls/opt $$@
FP_FIXTURES_$(1) += $(FPT_$(1))/tls/opt/prog_dlthreads

# --------------------------------------------------------------- unload --
# dlopen as a transaction, and dlclose of objects still in use. libuser is
# optimized (bound directly to libdef); the interposers stay plain and are
# found in unload/ after opt/.
$(call fp_lib,$(1),unload/libdef.so,unload/def.c)
$(call fp_lib,$(1),unload/libuser.so,unload/user.c,unload/libdef.so,-ldef)
$(call fp_lib,$(1),unload/libip.so,unload/ip.c,,-Wl$(fp_comma)-z$(fp_comma)interpose)
$(call fp_lib,$(1),unload/libipbad.so,unload/ipbad.c,,-Wl$(fp_comma)-z$(fp_comma)interpose)
$(call fp_lib,$(1),unload/libneedsip.so,unload/needsip.c,unload/libip.so,-lip)
$(call fp_exe,$(1),unload/ipmain,unload/ipmain.c)
$(call fp_opt,$(1),unload,libdef.so libuser.so)
$(call fp_lib,$(1),unload/libplain.so,unload/plain.c)
$(call fp_lib,$(1),unload/libatfork.so,unload/atfork.c)
$(call fp_lib,$(1),unload/libcxa.so,unload/cxa.c)
$(call fp_exe,$(1),unload/dlmain,unload/dlmain.c)

# -------------------------------------------------------- SysV hash only --
# The interposer fixture linked with DT_HASH alone (older toolchains'
# default): linkopt then records SysV hash values too.
$(call fp_lib,$(1),sysv/libcore.so,interpose/libcore.c,,-Wl$(fp_comma)--hash-style=sysv)
$(call fp_lib,$(1),sysv/libuser.so,interpose/libuser.c,sysv/libcore.so,-Wl$(fp_comma)--hash-style=sysv -lcore)
$(call fp_exe,$(1),sysv/prog_exe,interpose/main.c,sysv/libuser.so,-Wl$(fp_comma)--hash-style=sysv -DEXE_GREET -luser -lcore)
$(call fp_opt,$(1),sysv,libcore.so libuser.so prog_exe)

# ------------------------------------------------------- corrupted tables --
$(FP_CORRUPT_FIELDS:%=$(FPT_$(1))/corrupt/%/libuser.so): $(FPT_$(1))/corrupt/%/libuser.so: \
		$(FPT_$(1))/interpose/opt/.stamp $(FPT_x86_64)/qbcorrupt
	@mkdir -p $$(@D)
	$(Q)$(FPT_x86_64)/qbcorrupt $$* $(FPT_$(1))/interpose/opt/libuser.so $$@
$(FPT_$(1))/corrupt/sysv_off/sysv/libuser.so: $(FPT_$(1))/sysv/opt/.stamp $(FPT_x86_64)/qbcorrupt
	@mkdir -p $$(@D)
	$(Q)$(FPT_x86_64)/qbcorrupt sysv_off $(FPT_$(1))/sysv/opt/libuser.so $$@
FP_FIXTURES_$(1) += $(FP_CORRUPT_FIELDS:%=$(FPT_$(1))/corrupt/%/libuser.so) \
	$(FPT_$(1))/corrupt/sysv_off/sysv/libuser.so

# ------------------------------------- generated 50-library application --
$(FPT_$(1))/app/.stamp: $(FPS)/gen_app.sh $(FP_LINKOPT) $(B)/lib/ld-quickbind-$(1).so.1 tests/fastpath.mk
	@echo "GEN $(FPT_$(1))/app ($(FP_APP_N) $(1) libraries)"
	$(Q)sh $(FPS)/gen_app.sh $(FPT_$(1))/app $(FP_APP_N) "$(strip $(FP_CC_$(1)) $(FP_NOPIE_$(1)))" \
		$(FP_LINKOPT) && touch $$@
FP_FIXTURES_$(1) += $(FPT_$(1))/app/.stamp

$(FPT_$(1))/fpcommon.o: $(FPS)/fpcommon.c tests/fastpath.mk
	@mkdir -p $$(@D)
	@echo "CC $$< ($(1))"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(FP_DEFS_$(1)) -Itests -DFP_LINKOPT='"$(abspath $(FP_LINKOPT))"' -c -o $$@ $$<
FP_OBJS_$(1) := $(FPT_$(1))/fpcommon.o
FP_DEPFILES += $(FPT_$(1))/fpcommon.d
endef

# One tool for both ELF classes; it runs on the host.
$(FPT_x86_64)/qbcorrupt: $(FPS)/qbcorrupt.c $(B)/host/common/elfbuf.o tests/fastpath.mk
	@mkdir -p $(@D)
	@echo "HOSTCC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $< $(B)/host/common/elfbuf.o
FP_DEPFILES += $(FPT_x86_64)/qbcorrupt.d

$(foreach a,$(FP_ARCHS),$(eval $(call fp_fixtures,$(a))))
$(eval $(call suite,FP))
