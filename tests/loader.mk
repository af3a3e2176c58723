# Integration tests of the loader: real musl programs and libraries built from
# tests/loader/, run under musl's loader (the reference) and under quickbind,
# both as PT_INTERP and by direct invocation, outputs compared.
#
# Every program is linked twice: NAME.musl (PT_INTERP = musl's loader) and
# NAME.qb (PT_INTERP = QB_TEST_LOADER). To validate the suite against musl
# alone, substitute musl's loader for quickbind:
#     make check-loader QB_TEST_LOADER=/lib/ld-musl-x86_64.so.1
# (at run time the environment variable QB_TEST_LOADER overrides the loader
# used for direct invocation only).

QBT := $(B)/tests/loader
QBT_SRC := tests/loader
QB_TEST_LOADER ?= $(abspath $(LOADER))
QBT_MUSL_LDSO := /lib/ld-musl-x86_64.so.1
QBT_CC := musl-gcc
QBT_GLIBC_CC := gcc
QBT_I386_CC := i686-linux-gnu-gcc
QBT_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
QBT_FIXTURES :=
QBT_DEPFILES :=
comma := ,

# The .qb programs record QB_TEST_LOADER; relink them when it changes.
$(QBT)/interp.stamp: qbt-force
	@mkdir -p $(@D)
	$(Q)echo '$(QB_TEST_LOADER)' | cmp -s - $@ || echo '$(QB_TEST_LOADER)' > $@
.PHONY: qbt-force check-loader
qbt-force:

# $(call qbt_lib,OUT.so,SOURCES,PREREQUISITES,FLAGS[,CC]): a shared library
# whose soname is its file name. Fixtures depend on this file: their flags
# live here.
define qbt_lib
$(1): $(2) $(3) tests/loader.mk
	@mkdir -p $$(@D)
	@echo "CC[fixture] $$@"
	$(Q)$(or $(5),$(QBT_CC)) $(QBT_CFLAGS) -fPIC -shared -Wl,-soname,$$(@F) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
QBT_FIXTURES += $(1)
QBT_DEPFILES += $(1).d
endef

# $(call qbt_exe,OUT,SOURCES,PREREQUISITES,FLAGS): OUT.musl and OUT.qb.
define qbt_exe
$(1).musl: $(2) $(3) tests/loader.mk
	@mkdir -p $$(@D)
	@echo "CC[fixture] $$@"
	$(Q)$(QBT_CC) $(QBT_CFLAGS) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
$(1).qb: $(2) $(3) tests/loader.mk $(QBT)/interp.stamp
	@mkdir -p $$(@D)
	@echo "CC[fixture] $$@"
	$(Q)$(QBT_CC) $(QBT_CFLAGS) -Wl,--dynamic-linker=$(QB_TEST_LOADER) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
QBT_FIXTURES += $(1).musl $(1).qb
QBT_DEPFILES += $(1).musl.d $(1).qb.d
endef

# $(call qbt_glibc_exe,OUT,SOURCES,PREREQUISITES,FLAGS): OUT built with the
# host's glibc toolchain, the reference for what musl's loader lacks
# (IFUNC, symbol versions).
define qbt_glibc_exe
$(1): $(2) $(3) tests/loader.mk
	@mkdir -p $$(@D)
	@echo "CC[fixture] $$@"
	$(Q)$(QBT_GLIBC_CC) $(QBT_CFLAGS) -MMD -MP -MF $$@.d -o $$@ $(2) $(4)
QBT_FIXTURES += $(1)
QBT_DEPFILES += $(1).d
endef

# ------------------------------------------------------------------ TLS --
QBT_T := $(QBT)/tls
QBT_S := $(QBT_SRC)/tls
$(eval $(call qbt_lib,$(QBT_T)/libtlsa.so,$(QBT_S)/liba.c))
$(eval $(call qbt_lib,$(QBT_T)/libtlsb.so,$(QBT_S)/libb.c,,-mtls-dialect=gnu2))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/libtlsa.so $(QBT_T)/libtlsb.so,-L$(QBT_T) -ltlsa -ltlsb))

# -------------------------------------------------------- init and fini --
QBT_T := $(QBT)/initfini
QBT_S := $(QBT_SRC)/initfini
$(eval $(call qbt_lib,$(QBT_T)/libleaf.so,$(QBT_S)/libc_leaf.c,,-Wl$(comma)-init=leaf_init -Wl$(comma)-fini=leaf_fini))
$(eval $(call qbt_lib,$(QBT_T)/libmid.so,$(QBT_S)/libmid.c,$(QBT_T)/libleaf.so,-L$(QBT_T) -lleaf))
$(eval $(call qbt_lib,$(QBT_T)/libtop.so,$(QBT_S)/libtop.c,$(QBT_T)/libmid.so,-L$(QBT_T) -lmid -lleaf))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/libtop.so,-L$(QBT_T) -ltop -lmid -Wl$(comma)-rpath-link$(comma)$(QBT_T)))

# DT_PREINIT_ARRAY: glibc is the reference (musl's loader ignores it).
QBT_T := $(QBT)/preinit
QBT_S := $(QBT_SRC)/preinit
$(eval $(call qbt_lib,$(QBT_T)/libpre.so,$(QBT_S)/libpre.c))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/libpre.so,-L$(QBT_T) -lpre))
$(eval $(call qbt_lib,$(QBT_T)/glibc/libpre.so,$(QBT_S)/libpre.c,,,$(QBT_GLIBC_CC)))
$(eval $(call qbt_glibc_exe,$(QBT_T)/glibc/prog,$(QBT_S)/main.c,$(QBT_T)/glibc/libpre.so,-L$(QBT_T)/glibc -lpre))

# ---------------------------------------------------- copy relocations --
QBT_T := $(QBT)/copyreloc
QBT_S := $(QBT_SRC)/copyreloc
$(eval $(call qbt_lib,$(QBT_T)/libcr.so,$(QBT_S)/libcr.c))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/libcr.so,-L$(QBT_T) -lcr))
$(eval $(call qbt_exe,$(QBT_T)/prog_nopie,$(QBT_S)/main.c,$(QBT_T)/libcr.so,-no-pie -L$(QBT_T) -lcr))

# --------------------------------------------------------- interposition --
QBT_T := $(QBT)/interpose
QBT_S := $(QBT_SRC)/interpose
$(eval $(call qbt_lib,$(QBT_T)/libip.so,$(QBT_S)/libip.c))
$(eval $(call qbt_lib,$(QBT_T)/libip2.so,$(QBT_S)/libip2.c))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/libip.so $(QBT_T)/libip2.so,-L$(QBT_T) -lip -lip2))

# ------------------------------------------------- weak and duplicate --
QBT_T := $(QBT)/weak
QBT_S := $(QBT_SRC)/weak
$(eval $(call qbt_lib,$(QBT_T)/libw1.so,$(QBT_S)/libw1.c))
$(eval $(call qbt_lib,$(QBT_T)/libw2.so,$(QBT_S)/libw2.c))
$(eval $(call qbt_exe,$(QBT_T)/prog12,$(QBT_S)/main.c,$(QBT_T)/libw1.so $(QBT_T)/libw2.so,-L$(QBT_T) -lw1 -lw2))
$(eval $(call qbt_exe,$(QBT_T)/prog21,$(QBT_S)/main.c,$(QBT_T)/libw1.so $(QBT_T)/libw2.so,-L$(QBT_T) -lw2 -lw1))

# ---------------------------------------------------------------- $ORIGIN --
# bin/prog_* find lib/liborig.so through $ORIGIN/../lib (RUNPATH in one,
# RPATH in the other); liborig finds lib/dep/libodep.so through its own
# RUNPATH $ORIGIN/dep.
QBT_T := $(QBT)/origin
QBT_S := $(QBT_SRC)/origin
$(eval $(call qbt_lib,$(QBT_T)/lib/dep/libodep.so,$(QBT_S)/libodep.c))
$(eval $(call qbt_lib,$(QBT_T)/lib/liborig.so,$(QBT_S)/liborig.c,$(QBT_T)/lib/dep/libodep.so,-L$(QBT_T)/lib/dep -lodep -Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/dep'))
$(eval $(call qbt_exe,$(QBT_T)/bin/prog_runpath,$(QBT_S)/main.c,$(QBT_T)/lib/liborig.so,-L$(QBT_T)/lib -lorig -Wl$(comma)-rpath-link$(comma)$(QBT_T)/lib/dep -Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../lib'))
$(eval $(call qbt_exe,$(QBT_T)/bin/prog_rpath,$(QBT_S)/main.c,$(QBT_T)/lib/liborig.so,-L$(QBT_T)/lib -lorig -Wl$(comma)-rpath-link$(comma)$(QBT_T)/lib/dep -Wl$(comma)--disable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../lib'))

# ------------------------------------------------------------- loaded once --
# bin/prog needs lib/libonce.so and lib/libuser.so; libuser needs
# libonce-alias.so, found through its RUNPATH in alias/, a symlink to
# lib/libonce.so: another name, the same file.
QBT_T := $(QBT)/once
QBT_S := $(QBT_SRC)/once
$(eval $(call qbt_lib,$(QBT_T)/lib/libonce.so,$(QBT_S)/libonce.c))
$(eval $(call qbt_lib,$(QBT_T)/link/libonce-alias.so,$(QBT_S)/libonce.c))
$(eval $(call qbt_lib,$(QBT_T)/lib/libuser.so,$(QBT_S)/libuser.c,$(QBT_T)/link/libonce-alias.so,-L$(QBT_T)/link -lonce-alias -Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../alias'))
$(eval $(call qbt_exe,$(QBT_T)/bin/prog,$(QBT_S)/main.c,$(QBT_T)/lib/libonce.so $(QBT_T)/lib/libuser.so $(QBT_T)/alias/libonce-alias.so,-L$(QBT_T)/lib -lonce -luser -Wl$(comma)-rpath-link$(comma)$(QBT_T)/link -Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../lib'))
$(QBT_T)/alias/libonce-alias.so:
	@mkdir -p $(@D)
	$(Q)ln -sfn ../lib/libonce.so $@
QBT_FIXTURES += $(QBT_T)/alias/libonce-alias.so

# -------------------------------------------------------- LD_LIBRARY_PATH --
QBT_T := $(QBT)/libpath
QBT_S := $(QBT_SRC)/libpath
$(eval $(call qbt_lib,$(QBT_T)/a/liblp.so,$(QBT_S)/liblp.c,,-DWHICH='"a"'))
$(eval $(call qbt_lib,$(QBT_T)/b/liblp.so,$(QBT_S)/liblp.c,,-DWHICH='"b"'))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/a/liblp.so $(QBT_T)/b/liblp.so,-L$(QBT_T)/a -llp))
# The search order itself is tested by tests/search.mk.

# ------------------------------------------------------------------ IFUNC --
QBT_T := $(QBT)/ifunc
QBT_S := $(QBT_SRC)/ifunc
$(eval $(call qbt_lib,$(QBT_T)/libifn.so,$(QBT_S)/libifn.c))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/libifn.so,-L$(QBT_T) -lifn))
$(eval $(call qbt_lib,$(QBT_T)/glibc/libifn.so,$(QBT_S)/libifn.c,,,$(QBT_GLIBC_CC)))
$(eval $(call qbt_glibc_exe,$(QBT_T)/glibc/prog,$(QBT_S)/main.c,$(QBT_T)/glibc/libifn.so,-L$(QBT_T)/glibc -lifn))

# -------------------------------------------------------- symbol versions --
# prog_old is linked against link/libver.so (vfunc@VER_1 only) and runs with
# libver.so holding vfunc@VER_1 and vfunc@@VER_2.
QBT_T := $(QBT)/symver
QBT_S := $(QBT_SRC)/symver
$(eval $(call qbt_lib,$(QBT_T)/link/libver.so,$(QBT_S)/libver1.c,$(QBT_S)/libver1.map,-Wl$(comma)--version-script=$(QBT_S)/libver1.map))
$(eval $(call qbt_lib,$(QBT_T)/libver.so,$(QBT_S)/libver2.c,$(QBT_S)/libver2.map,-Wl$(comma)--version-script=$(QBT_S)/libver2.map))
$(eval $(call qbt_exe,$(QBT_T)/prog_old,$(QBT_S)/main.c,$(QBT_T)/link/libver.so,-L$(QBT_T)/link -lver))
$(eval $(call qbt_exe,$(QBT_T)/prog_new,$(QBT_S)/main.c,$(QBT_T)/libver.so,-L$(QBT_T) -lver))
$(eval $(call qbt_lib,$(QBT_T)/glibc/link/libver.so,$(QBT_S)/libver1.c,$(QBT_S)/libver1.map,-Wl$(comma)--version-script=$(QBT_S)/libver1.map,$(QBT_GLIBC_CC)))
$(eval $(call qbt_lib,$(QBT_T)/glibc/libver.so,$(QBT_S)/libver2.c,$(QBT_S)/libver2.map,-Wl$(comma)--version-script=$(QBT_S)/libver2.map,$(QBT_GLIBC_CC)))
$(eval $(call qbt_glibc_exe,$(QBT_T)/glibc/prog_old,$(QBT_S)/main.c,$(QBT_T)/glibc/link/libver.so,-L$(QBT_T)/glibc/link -lver))
$(eval $(call qbt_glibc_exe,$(QBT_T)/glibc/prog_new,$(QBT_S)/main.c,$(QBT_T)/glibc/libver.so,-L$(QBT_T)/glibc -lver))

# ------------------------------------------------------- libc-heavy program --
QBT_T := $(QBT)/stdio
QBT_S := $(QBT_SRC)/stdio
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,,))

# -------------------------------------------------- library graph (50+) --
# QBT_GRAPH_N nodes plus librec; node i needs 2i+1, 2i+2 (a tree reaching
# every node from node 0) and (7i+3) mod N when that is further down, which
# makes diamonds everywhere. The program needs nodes 0, 1 and N/2.
QBT_GRAPH_N := 60
QBT_T := $(QBT)/graph
QBT_S := $(QBT_SRC)/graph
qbt_graph_edges := $(shell awk 'BEGIN { n = $(QBT_GRAPH_N); \
	for (i = 0; i < n; i++) { d = ""; \
		if (2 * i + 1 < n) d = d "," 2 * i + 1; \
		if (2 * i + 2 < n) d = d "," 2 * i + 2; \
		j = (7 * i + 3) % n; if (j > i && j != 2 * i + 1 && j != 2 * i + 2) d = d "," j; \
		print i ":" substr(d, 2) } }')
qbt_graph_node = $(word 1,$(subst :, ,$(1)))
qbt_graph_deps = $(subst $(comma), ,$(word 2,$(subst :, ,$(1))))
$(eval $(call qbt_lib,$(QBT_T)/librec.so,$(QBT_S)/rec.c))
$(foreach e,$(qbt_graph_edges),$(eval $(call qbt_lib,$(QBT_T)/libg$(call qbt_graph_node,$(e)).so,$(QBT_S)/node.c,\
	$(QBT_T)/librec.so $(foreach d,$(call qbt_graph_deps,$(e)),$(QBT_T)/libg$(d).so),\
	-DNODE=$(call qbt_graph_node,$(e)) -DDEPS='$(foreach d,$(call qbt_graph_deps,$(e)),D($(d)))' \
	-L$(QBT_T) $(foreach d,$(call qbt_graph_deps,$(e)),-lg$(d)) -lrec)))
qbt_graph_roots := 0 1 $(shell expr $(QBT_GRAPH_N) / 2)
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(foreach r,$(qbt_graph_roots),$(QBT_T)/libg$(r).so),\
	-DROOTS='$(foreach r,$(qbt_graph_roots),D($(r)))' -L$(QBT_T) $(foreach r,$(qbt_graph_roots),-lg$(r)) \
	-lrec -Wl$(comma)-rpath-link$(comma)$(QBT_T)))

# ---------------------------------------------------------- error cases --
# prog needs libqbtbad.so (linked against link/); each directory below holds
# a broken libqbtbad.so and the test runs prog with LD_LIBRARY_PATH=<dir>.
QBT_T := $(QBT)/errors
QBT_S := $(QBT_SRC)/errors
$(eval $(call qbt_lib,$(QBT_T)/link/libqbtbad.so,$(QBT_S)/libqbtbad.c))
$(eval $(call qbt_lib,$(QBT_T)/nosym/libqbtbad.so,$(QBT_S)/nosym.c))
$(eval $(call qbt_exe,$(QBT_T)/prog,$(QBT_S)/main.c,$(QBT_T)/link/libqbtbad.so,-L$(QBT_T)/link -lqbtbad))

# prog_indirect needs needs/libqbtneeds.so, which needs the absent
# libqbtgone.so.
$(eval $(call qbt_lib,$(QBT_T)/link/libqbtgone.so,$(QBT_S)/libgone.c))
$(eval $(call qbt_lib,$(QBT_T)/needs/libqbtneeds.so,$(QBT_S)/libneeds.c,$(QBT_T)/link/libqbtgone.so,-L$(QBT_T)/link -lqbtgone))
$(eval $(call qbt_exe,$(QBT_T)/prog_indirect,$(QBT_S)/indirect.c,$(QBT_T)/needs/libqbtneeds.so,-L$(QBT_T)/needs -lqbtneeds -Wl$(comma)-rpath-link$(comma)$(QBT_T)/link))

# fuzz: a library the fuzz suite mutates, a program needing it, the mutator.
QBF_T := $(QBT)/fuzz
QBF_S := $(QBT_SRC)/fuzz
$(eval $(call qbt_lib,$(QBF_T)/libfz.so,$(QBF_S)/libfz.c,$(QBF_S)/fz.map,-Wl$(comma)--version-script=$(QBF_S)/fz.map))
$(eval $(call qbt_exe,$(QBF_T)/prog,$(QBF_S)/prog.c,$(QBF_T)/libfz.so,-L$(QBF_T) -lfz))
# the same library with linkopt's tables, for the fast paths' share of it
$(QBF_T)/opt/libfz.so: $(QBF_T)/libfz.so $(B)/bin/linkopt
	@mkdir -p $(@D)
	@echo "LINKOPT $@"
	$(Q)$(B)/bin/linkopt -L$(QBF_T) -o $@ $<
QBT_FIXTURES += $(QBF_T)/opt/libfz.so
# The ELF-damaging tools find tables with the loader's own reader.
QBT_ELFREADER := $(B)/host/common/elfview.o $(B)/host/common/elfbuf.o
$(QBF_T)/elfmutate: $(QBF_S)/elfmutate.c $(QBT_ELFREADER)
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $< $(QBT_ELFREADER)
QBT_FIXTURES += $(QBF_T)/elfmutate
QBT_DEPFILES += $(QBF_T)/elfmutate.d

$(QBT_T)/elfcorrupt: $(QBT_S)/elfcorrupt.c $(QBT_ELFREADER)
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $< $(QBT_ELFREADER)
QBT_DEPFILES += $(QBT_T)/elfcorrupt.d

$(QBT_T)/notelf/libqbtbad.so:
	@mkdir -p $(@D)
	$(Q)printf 'this is a text file, not an ELF shared object\n' > $@
$(QBT_T)/wrongarch/libqbtbad.so: $(QBT_S)/libqbtbad.c
	@mkdir -p $(@D)
	@echo "CC[i386] $@"
	$(Q)$(QBT_I386_CC) -O1 -fPIC -shared -nostdlib -Wl,-soname,$(@F) -o $@ $<
# 40 bytes: shorter than the ELF header; 100: the header and a piece of the
# first program header; half: program headers intact, segments cut off.
$(QBT_T)/trunc_hdr/libqbtbad.so: $(QBT_T)/link/libqbtbad.so
	@mkdir -p $(@D)
	$(Q)head -c 40 $< > $@
$(QBT_T)/trunc_ph/libqbtbad.so: $(QBT_T)/link/libqbtbad.so
	@mkdir -p $(@D)
	$(Q)head -c 100 $< > $@
$(QBT_T)/trunc_seg/libqbtbad.so: $(QBT_T)/link/libqbtbad.so
	@mkdir -p $(@D)
	$(Q)head -c $$(($$(wc -c < $<) / 2)) $< > $@
$(QBT_T)/badphoff/libqbtbad.so: $(QBT_T)/link/libqbtbad.so $(QBT_T)/elfcorrupt
	@mkdir -p $(@D)
	$(Q)$(word 2,$^) phoff $< $@
$(QBT_T)/badfilesz/libqbtbad.so: $(QBT_T)/link/libqbtbad.so $(QBT_T)/elfcorrupt
	@mkdir -p $(@D)
	$(Q)$(word 2,$^) filesz $< $@
$(QBT_T)/badreltype/libqbtbad.so: $(QBT_T)/link/libqbtbad.so $(QBT_T)/elfcorrupt
	@mkdir -p $(@D)
	$(Q)$(word 2,$^) reltype $< $@
# relro: PT_GNU_RELRO over addresses 0-0x100000; gnubucket: GNU hash
# buckets whose sizes wrap a 32-bit address space.
$(QBT_T)/relro/libqbtbad.so $(QBT_T)/gnubucket/libqbtbad.so: $(QBT_T)/%/libqbtbad.so: $(QBT_T)/link/libqbtbad.so $(QBT_T)/elfcorrupt
	@mkdir -p $(@D)
	$(Q)$(word 2,$^) $* $< $@
QBT_FIXTURES += $(foreach d,notelf wrongarch trunc_hdr trunc_ph trunc_seg badphoff badfilesz badreltype relro gnubucket,$(QBT_T)/$(d)/libqbtbad.so)

# broken programs: both builds of prog, corrupted the same way
QBT_BADEXE := entry:entry phdr:phdrnoread filesz:filesz
define qbt_badexe
$(QBT_T)/badexe_$(1)/prog.musl $(QBT_T)/badexe_$(1)/prog.qb: $(QBT_T)/badexe_$(1)/prog.%: $(QBT_T)/prog.% $(QBT_T)/elfcorrupt
	@mkdir -p $$(@D)
	$(Q)$(QBT_T)/elfcorrupt $(2) $$< $$@ && chmod +x $$@
QBT_FIXTURES += $(QBT_T)/badexe_$(1)/prog.musl $(QBT_T)/badexe_$(1)/prog.qb
endef
$(foreach e,$(QBT_BADEXE),$(eval $(call qbt_badexe,$(word 1,$(subst :, ,$(e))),$(word 2,$(subst :, ,$(e))))))
# a program with TLS whose PT_TLS size wraps the address space
$(eval $(call qbt_exe,$(QBT_T)/tlsprog,$(QBT_S)/tlsprog.c))
$(QBT_T)/badexe_tlsmemsz/prog.musl $(QBT_T)/badexe_tlsmemsz/prog.qb: $(QBT_T)/badexe_tlsmemsz/prog.%: $(QBT_T)/tlsprog.% $(QBT_T)/elfcorrupt
	@mkdir -p $(@D)
	$(Q)$(QBT_T)/elfcorrupt tlsmemsz $< $@ && chmod +x $@
QBT_FIXTURES += $(QBT_T)/badexe_tlsmemsz/prog.musl $(QBT_T)/badexe_tlsmemsz/prog.qb

# ------------------------------------------------------- the test programs --
QBT_SUITES := run errors ext fuzz
QBT_BINS := $(QBT_SUITES:%=$(B)/tests/test_loader_%)
QBT_OBJS := $(B)/tests/loader/lt-compare.o $(B)/tests/libqbtest.a

$(B)/tests/loader/lt-compare.o: tests/lib/compare.c $(QBT)/interp.stamp
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DLT_LOADER='"$(QB_TEST_LOADER)"' \
		-DLT_FIXTURES='"$(abspath $(QBT))"' -DLT_MUSL_LDSO='"$(QBT_MUSL_LDSO)"' -c -o $@ $<

$(QBT_BINS:=.o): $(B)/tests/test_loader_%.o: tests/test_loader_%.c
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -I$(QBT_SRC) -c -o $@ $<

$(QBT_BINS): $(B)/tests/test_loader_%: $(B)/tests/test_loader_%.o $(QBT_OBJS)
	@echo "LD $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

CHECK_DEPS += $(QBT_FIXTURES)
CHECK_BINS += $(QBT_BINS)

# The suites without the rest of `make check` (and without building the
# loader, so they can be validated against musl's loader alone).
check-loader: $(QBT_FIXTURES) $(QBT_BINS)
	@fail=0; for t in $(QBT_BINS); do echo "== $$t"; $$t --jobs=2 || fail=1; done; \
	[ $$fail = 0 ] && echo "check-loader: passed" || { echo "check-loader: FAILURES"; exit 1; }

-include $(QBT_DEPFILES) $(B)/tests/loader/lt-compare.d $(QBT_SUITES:%=$(B)/tests/test_loader_%.d)
