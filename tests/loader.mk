# Integration tests of the loader: real musl programs and libraries built
# from tests/loader/, run under musl's loader of the same architecture (the
# reference) and under quickbind, both as PT_INTERP and by direct
# invocation, outputs compared.
#
# Everything is built once per architecture from the same sources, as the
# fast-path suites are: x86_64 always, i386 when configure enabled it (its
# programs run under qemu-user where the kernel cannot run them). The test
# programs are compiled once per architecture too; the build defines
# LT_ARCH_I386 for i386 (tests/loader/arch.h holds what differs).
#   make check-loader          both architectures (build/tests/ARCH/test_loader_*)
#   make check-loader-i386     i386 alone (check-loader-x86_64: x86_64 alone)
#
# Every program is linked twice: NAME.musl (PT_INTERP = musl's loader) and
# NAME.qb (PT_INTERP = the loader under test). To validate the suites
# against musl alone, substitute musl's loader for quickbind:
#     make check-loader-x86_64 QB_TEST_LOADER=/lib/ld-musl-x86_64.so.1
#     make check-loader-i386 QB_TEST_LOADER_i386=/lib/ld-musl-i386.so.1
# (at run time the environment variable QB_TEST_LOADER overrides the loader
# used for direct invocation only).

QBT_SRC := tests/loader
QBT_MK := tests/loader.mk
QBT_CFLAGS := $(SUITE_CFLAGS)
QBT_CHECK := check-loader
QBT_TESTS := $(addprefix tests/test_loader_,run errors ext fuzz)
QBT_MUSL := yes
QBT_testflags = $(if $(filter i386,$(1)),-DLT_ARCH_I386) -DLT_TOOLS='"$(abspath $(QBT_x86_64))"'
QBT_DEPFILES :=

QBT_ARCHS := x86_64 $(filter i386,$(ARCHS))

QB_TEST_LOADER ?= $(abspath $(LOADER))
QBT_x86_64 := $(B)/tests/loader
QBT_DIR_x86_64 := $(QBT_x86_64)
QBT_CC_x86_64 := $(MUSL_CC_x86_64)
QBT_GLIBC_CC_x86_64 := gcc
# a library of the other architecture, for the wrong-architecture test
QBT_OTHER_CC_x86_64 := i686-linux-gnu-gcc
QBT_LOADER_x86_64 := $(QB_TEST_LOADER)

QB_TEST_LOADER_i386 ?= $(abspath $(B)/lib/ld-quickbind-i386.so.1)
QBT_i386 := $(B)/tests/i386loader
QBT_DIR_i386 := $(QBT_i386)
QBT_CC_i386 := $(MUSL_CC_i386)
QBT_GLIBC_CC_i386 := i686-linux-gnu-gcc
QBT_OTHER_CC_i386 := gcc
QBT_LOADER_i386 := $(QB_TEST_LOADER_i386)

# $(call qbt_lib,ARCH,OUT.so,SOURCES,PREREQUISITES,FLAGS[,glibc]): a
# fixture library (tests/suite.mk); glibc: built with the host's glibc
# toolchain of that architecture.
qbt_lib = $(call suite_lib,QBT,$(1),$(2),$(3),$(4),$(5),$(if $(6),$(QBT_GLIBC_CC_$(1))))
# $(call qbt_exe,ARCH,OUT,SOURCES,PREREQUISITES,FLAGS): OUT.musl and OUT.qb.
qbt_exe = $(call suite_exe,QBT,$(1),$(2),$(3),$(4),$(5))

# $(call qbt_glibc_exe,ARCH,OUT,SOURCES,PREREQUISITES,FLAGS): OUT built with
# the host's glibc toolchain, the reference for what musl's loader lacks
# (IFUNC, symbol versions, DT_PREINIT_ARRAY).
qbt_glibc_exe = $(call suite_prog,QBT,$(1),$(2),$(3),$(4),$(5),$(QBT_GLIBC_CC_$(1)))

# -------------------------------------------------- library graph (50+) --
# QBT_GRAPH_N nodes plus librec; node i needs 2i+1, 2i+2 (a tree reaching
# every node from node 0) and (7i+3) mod N when that is further down, which
# makes diamonds everywhere. The program needs nodes 0, 1 and N/2.
QBT_GRAPH_N := 60
qbt_graph_edges := $(shell awk 'BEGIN { n = $(QBT_GRAPH_N); \
	for (i = 0; i < n; i++) { d = ""; \
		if (2 * i + 1 < n) d = d "," 2 * i + 1; \
		if (2 * i + 2 < n) d = d "," 2 * i + 2; \
		j = (7 * i + 3) % n; if (j > i && j != 2 * i + 1 && j != 2 * i + 2) d = d "," j; \
		print i ":" substr(d, 2) } }')
qbt_graph_node = $(word 1,$(subst :, ,$(1)))
qbt_graph_deps = $(subst $(comma), ,$(word 2,$(subst :, ,$(1))))
qbt_graph_roots := 0 1 $(shell expr $(QBT_GRAPH_N) / 2)
# $(call qbt_graph_lib,ARCH,EDGE)
qbt_graph_lib = $(call qbt_lib,$(1),graph/libg$(call qbt_graph_node,$(2)).so,graph/node.c,\
	graph/librec.so $(foreach d,$(call qbt_graph_deps,$(2)),graph/libg$(d).so),\
	-DNODE=$(call qbt_graph_node,$(2)) -DDEPS='$(foreach d,$(call qbt_graph_deps,$(2)),D($(d)))' \
	-L$(QBT_$(1))/graph $(foreach d,$(call qbt_graph_deps,$(2)),-lg$(d)) -lrec)

# broken programs (directory badexe_NAME:elfcorrupt MODE): both builds of
# errors/prog, corrupted the same way
QBT_BADEXE := entry:entry phdr:phdrnoread filesz:filesz
# broken libraries (elfcorrupt MODE:directory) made from
# errors/link/libqbtbad.so:
# relro: PT_GNU_RELRO over addresses 0-0x100000; gnubucket: GNU hash
# buckets whose sizes wrap a 32-bit address space.
QBT_BADLIB := phoff:badphoff filesz:badfilesz reltype:badreltype relro:relro gnubucket:gnubucket

# $(call qbt_fixtures,ARCH): every fixture of one architecture.
define qbt_fixtures
# ------------------------------------------------------------------ TLS --
# liba: general dynamic and initial exec; libb: TLS descriptors (gnu2). On
# i386 liba also holds a variable reached only by the Sun form of initial
# exec (R_386_TLS_TPOFF32, which x86_64 does not have).
$(call qbt_lib,$(1),tls/libtlsa.so,tls/liba.c)
$(call qbt_lib,$(1),tls/libtlsb.so,tls/libb.c,,-mtls-dialect=gnu2)
$(call qbt_exe,$(1),tls/prog,tls/main.c,tls/libtlsa.so tls/libtlsb.so,-L$(QBT_$(1))/tls -ltlsa -ltlsb)

# ---------------------------------------------------------- dynamic TLS --
# Libraries dlopened after threads exist: general dynamic and TLSDESC.
$(call qbt_lib,$(1),dlopen/libdyngd.so,dlopen/libdyn.c,,-DDYN_NAME='"gd"')
$(call qbt_lib,$(1),dlopen/libdyndesc.so,dlopen/libdyn.c,,-DDYN_NAME='"desc"' -mtls-dialect=gnu2)
$(call qbt_exe,$(1),dlopen/prog,dlopen/main.c,dlopen/libdyngd.so dlopen/libdyndesc.so)

# -------------------------------------------------------- init and fini --
$(call qbt_lib,$(1),initfini/libleaf.so,initfini/libc_leaf.c,,-Wl$(comma)-init=leaf_init -Wl$(comma)-fini=leaf_fini)
$(call qbt_lib,$(1),initfini/libmid.so,initfini/libmid.c,initfini/libleaf.so,-L$(QBT_$(1))/initfini -lleaf)
$(call qbt_lib,$(1),initfini/libtop.so,initfini/libtop.c,initfini/libmid.so,-L$(QBT_$(1))/initfini -lmid -lleaf)
$(call qbt_exe,$(1),initfini/prog,initfini/main.c,initfini/libtop.so,\
	-L$(QBT_$(1))/initfini -ltop -lmid -Wl$(comma)-rpath-link$(comma)$(QBT_$(1))/initfini)

# DT_PREINIT_ARRAY: glibc is the reference (musl's loader ignores it).
$(call qbt_lib,$(1),preinit/libpre.so,preinit/libpre.c)
$(call qbt_exe,$(1),preinit/prog,preinit/main.c,preinit/libpre.so,-L$(QBT_$(1))/preinit -lpre)
$(call qbt_lib,$(1),preinit/glibc/libpre.so,preinit/libpre.c,,,glibc)
$(call qbt_glibc_exe,$(1),preinit/glibc/prog,preinit/main.c,preinit/glibc/libpre.so,-L$(QBT_$(1))/preinit/glibc -lpre)

# ---------------------------------------------------- copy relocations --
# prog_nopie is a fixed-address executable (copy relocations on both
# architectures); prog is a PIE (copy relocations on x86_64, the GOT on
# i386).
$(call qbt_lib,$(1),copyreloc/libcr.so,copyreloc/libcr.c)
$(call qbt_exe,$(1),copyreloc/prog,copyreloc/main.c,copyreloc/libcr.so,-L$(QBT_$(1))/copyreloc -lcr)
$(call qbt_exe,$(1),copyreloc/prog_nopie,copyreloc/main.c,copyreloc/libcr.so,-fno-pie -no-pie -L$(QBT_$(1))/copyreloc -lcr)

# --------------------------------------------------------- interposition --
$(call qbt_lib,$(1),interpose/libip.so,interpose/libip.c)
$(call qbt_lib,$(1),interpose/libip2.so,interpose/libip2.c)
$(call qbt_exe,$(1),interpose/prog,interpose/main.c,interpose/libip.so interpose/libip2.so,-L$(QBT_$(1))/interpose -lip -lip2)

# ------------------------------------------------- weak and duplicate --
$(call qbt_lib,$(1),weak/libw1.so,weak/libw1.c)
$(call qbt_lib,$(1),weak/libw2.so,weak/libw2.c)
$(call qbt_exe,$(1),weak/prog12,weak/main.c,weak/libw1.so weak/libw2.so,-L$(QBT_$(1))/weak -lw1 -lw2)
$(call qbt_exe,$(1),weak/prog21,weak/main.c,weak/libw1.so weak/libw2.so,-L$(QBT_$(1))/weak -lw2 -lw1)

# ---------------------------------------------------------------- ORIGIN --
# bin/prog_* find lib/liborig.so through $$ORIGIN/../lib (RUNPATH in one,
# RPATH in the other); liborig finds lib/dep/libodep.so through its own
# RUNPATH $$ORIGIN/dep.
$(call qbt_lib,$(1),origin/lib/dep/libodep.so,origin/libodep.c)
$(call qbt_lib,$(1),origin/lib/liborig.so,origin/liborig.c,origin/lib/dep/libodep.so,\
	-L$(QBT_$(1))/origin/lib/dep -lodep -Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/dep')
$(call qbt_exe,$(1),origin/bin/prog_runpath,origin/main.c,origin/lib/liborig.so,\
	-L$(QBT_$(1))/origin/lib -lorig -Wl$(comma)-rpath-link$(comma)$(QBT_$(1))/origin/lib/dep \
	-Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../lib')
$(call qbt_exe,$(1),origin/bin/prog_rpath,origin/main.c,origin/lib/liborig.so,\
	-L$(QBT_$(1))/origin/lib -lorig -Wl$(comma)-rpath-link$(comma)$(QBT_$(1))/origin/lib/dep \
	-Wl$(comma)--disable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../lib')

# ------------------------------------------------------------- loaded once --
# bin/prog needs lib/libonce.so and lib/libuser.so; libuser needs
# libonce-alias.so, found through its RUNPATH in alias/, a symlink to
# lib/libonce.so: another name, the same file.
$(call qbt_lib,$(1),once/lib/libonce.so,once/libonce.c)
$(call qbt_lib,$(1),once/link/libonce-alias.so,once/libonce.c)
$(call qbt_lib,$(1),once/lib/libuser.so,once/libuser.c,once/link/libonce-alias.so,\
	-L$(QBT_$(1))/once/link -lonce-alias -Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../alias')
$(call qbt_exe,$(1),once/bin/prog,once/main.c,once/lib/libonce.so once/lib/libuser.so once/alias/libonce-alias.so,\
	-L$(QBT_$(1))/once/lib -lonce -luser -Wl$(comma)-rpath-link$(comma)$(QBT_$(1))/once/link \
	-Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/../lib')
$(QBT_$(1))/once/alias/libonce-alias.so:
	@mkdir -p $$(@D)
	$(Q)ln -sfn ../lib/libonce.so $$@
QBT_FIXTURES_$(1) += $(QBT_$(1))/once/alias/libonce-alias.so

# -------------------------------------------------------- LD_LIBRARY_PATH --
# The search order itself is tested by tests/search.mk.
$(call qbt_lib,$(1),libpath/a/liblp.so,libpath/liblp.c,,-DWHICH='"a"')
$(call qbt_lib,$(1),libpath/b/liblp.so,libpath/liblp.c,,-DWHICH='"b"')
$(call qbt_exe,$(1),libpath/prog,libpath/main.c,libpath/a/liblp.so libpath/b/liblp.so,-L$(QBT_$(1))/libpath/a -llp)

# ------------------------------------------------------------------ IFUNC --
$(call qbt_lib,$(1),ifunc/libifn.so,ifunc/libifn.c)
$(call qbt_exe,$(1),ifunc/prog,ifunc/main.c,ifunc/libifn.so,-L$(QBT_$(1))/ifunc -lifn)
$(call qbt_lib,$(1),ifunc/glibc/libifn.so,ifunc/libifn.c,,,glibc)
$(call qbt_glibc_exe,$(1),ifunc/glibc/prog,ifunc/main.c,ifunc/glibc/libifn.so,-L$(QBT_$(1))/ifunc/glibc -lifn)

# -------------------------------------------------------- symbol versions --
# prog_old is linked against link/libver.so (vfunc@VER_1 only) and runs with
# libver.so holding vfunc@VER_1 and vfunc@@VER_2.
$(call qbt_lib,$(1),symver/link/libver.so,symver/libver1.c,,-Wl$(comma)--version-script=$(QBT_SRC)/symver/libver1.map)
$(call qbt_lib,$(1),symver/libver.so,symver/libver2.c,,-Wl$(comma)--version-script=$(QBT_SRC)/symver/libver2.map)
$(call qbt_exe,$(1),symver/prog_old,symver/main.c,symver/link/libver.so,-L$(QBT_$(1))/symver/link -lver)
$(call qbt_exe,$(1),symver/prog_new,symver/main.c,symver/libver.so,-L$(QBT_$(1))/symver -lver)
$(call qbt_lib,$(1),symver/glibc/link/libver.so,symver/libver1.c,,-Wl$(comma)--version-script=$(QBT_SRC)/symver/libver1.map,glibc)
$(call qbt_lib,$(1),symver/glibc/libver.so,symver/libver2.c,,-Wl$(comma)--version-script=$(QBT_SRC)/symver/libver2.map,glibc)
$(call qbt_glibc_exe,$(1),symver/glibc/prog_old,symver/main.c,symver/glibc/link/libver.so,-L$(QBT_$(1))/symver/glibc/link -lver)
$(call qbt_glibc_exe,$(1),symver/glibc/prog_new,symver/main.c,symver/glibc/libver.so,-L$(QBT_$(1))/symver/glibc -lver)
$(QBT_$(1))/symver/link/libver.so $(QBT_$(1))/symver/glibc/link/libver.so: $(QBT_SRC)/symver/libver1.map
$(QBT_$(1))/symver/libver.so $(QBT_$(1))/symver/glibc/libver.so: $(QBT_SRC)/symver/libver2.map

# ---------------------------------------------------------------- DT_RELR --
# musl's loader (1.2.3) predates DT_RELR: the reference is plain/, the same
# program and library linked without packed relative relocations.
$(call qbt_lib,$(1),relr/librelr.so,relr/librelr.c,,-Wl$(comma)-z$(comma)pack-relative-relocs)
$(call qbt_exe,$(1),relr/prog,relr/main.c,relr/librelr.so,-Wl$(comma)-z$(comma)pack-relative-relocs -L$(QBT_$(1))/relr -lrelr)
$(call qbt_lib,$(1),relr/plain/librelr.so,relr/librelr.c)
$(call qbt_exe,$(1),relr/plain/prog,relr/main.c,relr/plain/librelr.so,-L$(QBT_$(1))/relr/plain -lrelr)

# ---------------------------------------------------------------- layout --
# liblay.so (bss from the last page of its data over three pages more)
# laid out four ways: as linked (plain/); linked for 64 KiB pages (gap/:
# gaps between its segments, p_align 64 KiB); the same with p_align made
# the page size (gap4k/); its program headers moved to the end of the file
# (phmove/). Each needs liblaydep.so one directory up. glibc unloads at
# dlclose as quickbind does (musl never unloads): it is the reference, with
# the same files built for it under glibc/.
$(call qbt_layout,$(1),layout/)
$(call qbt_layout,$(1),layout/glibc/,glibc)
$(call qbt_exe,$(1),layout/prog,layout/main.c)
$(call qbt_glibc_exe,$(1),layout/glibc/prog,layout/main.c)

# ------------------------------------------------- dlclose keeps objects --
# A plugin's pthread key destructor and signal handler, called after its
# dlclose while other modules come and go: musl's loader is the reference,
# for the default dlclose and for LD_DLCLOSE=unload.
$(call qbt_lib,$(1),keep/libkplugin.so,keep/plugin.c)
$(call qbt_lib,$(1),keep/libksigplugin.so,keep/sigplugin.c)
$(call qbt_lib,$(1),keep/libkother0.so,keep/other.c)
$(call qbt_lib,$(1),keep/libkother1.so,keep/other.c)
$(call qbt_lib,$(1),keep/libkother2.so,keep/other.c)
$(call qbt_exe,$(1),keep/host,keep/host.c,,-pthread)
$(call qbt_exe,$(1),keep/sighost,keep/sighost.c)

# ------------------------------------------------------- libc-heavy program --
$(call qbt_exe,$(1),stdio/prog,stdio/main.c)

# -------------------------------------------------- library graph (50+) --
$(call qbt_lib,$(1),graph/librec.so,graph/rec.c)
$(foreach e,$(qbt_graph_edges),$(eval $(call qbt_graph_lib,$(1),$(e))))
$(call qbt_exe,$(1),graph/prog,graph/main.c,$(foreach r,$(qbt_graph_roots),graph/libg$(r).so),\
	-DROOTS='$(foreach r,$(qbt_graph_roots),D($(r)))' -L$(QBT_$(1))/graph $(foreach r,$(qbt_graph_roots),-lg$(r)) \
	-lrec -Wl$(comma)-rpath-link$(comma)$(QBT_$(1))/graph)

# ---------------------------------------------------------- error cases --
# prog needs libqbtbad.so (linked against link/); each directory below holds
# a broken libqbtbad.so and the test runs prog with LD_LIBRARY_PATH=<dir>.
$(call qbt_lib,$(1),errors/link/libqbtbad.so,errors/libqbtbad.c)
$(call qbt_lib,$(1),errors/nosym/libqbtbad.so,errors/nosym.c)
$(call qbt_exe,$(1),errors/prog,errors/main.c,errors/link/libqbtbad.so,-L$(QBT_$(1))/errors/link -lqbtbad)

# prog_indirect needs needs/libqbtneeds.so, which needs the absent
# libqbtgone.so.
$(call qbt_lib,$(1),errors/link/libqbtgone.so,errors/libgone.c)
$(call qbt_lib,$(1),errors/needs/libqbtneeds.so,errors/libneeds.c,errors/link/libqbtgone.so,-L$(QBT_$(1))/errors/link -lqbtgone)
$(call qbt_exe,$(1),errors/prog_indirect,errors/indirect.c,errors/needs/libqbtneeds.so,\
	-L$(QBT_$(1))/errors/needs -lqbtneeds -Wl$(comma)-rpath-link$(comma)$(QBT_$(1))/errors/link)

$(QBT_$(1))/errors/notelf/libqbtbad.so:
	@mkdir -p $$(@D)
	$(Q)printf 'this is a text file, not an ELF shared object\n' > $$@
$(QBT_$(1))/errors/wrongarch/libqbtbad.so: $(QBT_SRC)/errors/libqbtbad.c
	@mkdir -p $$(@D)
	@echo "CC[other than $(1)] $$@"
	$(Q)$(QBT_OTHER_CC_$(1)) -O1 -fPIC -shared -nostdlib -Wl,-soname,$$(@F) -o $$@ $$<
# 40 bytes: shorter than the ELF header; 100: the header and a piece of the
# first program header; half: program headers intact, segments cut off.
$(QBT_$(1))/errors/trunc_hdr/libqbtbad.so: $(QBT_$(1))/errors/link/libqbtbad.so
	@mkdir -p $$(@D)
	$(Q)head -c 40 $$< > $$@
$(QBT_$(1))/errors/trunc_ph/libqbtbad.so: $(QBT_$(1))/errors/link/libqbtbad.so
	@mkdir -p $$(@D)
	$(Q)head -c 100 $$< > $$@
$(QBT_$(1))/errors/trunc_seg/libqbtbad.so: $(QBT_$(1))/errors/link/libqbtbad.so
	@mkdir -p $$(@D)
	$(Q)head -c $$$$(($$$$(wc -c < $$<) / 2)) $$< > $$@
$(foreach b,$(QBT_BADLIB),$(eval $(call qbt_badlib,$(1),$(word 1,$(subst :, ,$(b))),$(word 2,$(subst :, ,$(b))))))
QBT_FIXTURES_$(1) += $(foreach d,notelf wrongarch trunc_hdr trunc_ph trunc_seg,$(QBT_$(1))/errors/$(d)/libqbtbad.so)

$(foreach e,$(QBT_BADEXE),$(eval $(call qbt_badexe,$(1),prog,$(word 1,$(subst :, ,$(e))),$(word 2,$(subst :, ,$(e))))))
# a program with TLS whose PT_TLS size wraps the address space
$(call qbt_exe,$(1),errors/tlsprog,errors/tlsprog.c)
$(call qbt_badexe,$(1),tlsprog,tlsmemsz,tlsmemsz)

# --------------------------------------------------------------- fuzz --
# a library the fuzz suite mutates, a program needing it, and the same
# library with linkopt's tables, for the fast paths' share of it
$(call qbt_lib,$(1),fuzz/libfz.so,fuzz/libfz.c,,-Wl$(comma)--version-script=$(QBT_SRC)/fuzz/fz.map)
$(QBT_$(1))/fuzz/libfz.so: $(QBT_SRC)/fuzz/fz.map
$(call qbt_exe,$(1),fuzz/prog,fuzz/prog.c,fuzz/libfz.so,-L$(QBT_$(1))/fuzz -lfz)
$(QBT_$(1))/fuzz/opt/libfz.so: $(QBT_$(1))/fuzz/libfz.so $(B)/bin/linkopt
	@mkdir -p $$(@D)
	@echo "LINKOPT $$@"
	$(Q)$(B)/bin/linkopt -L$(QBT_$(1))/fuzz -o $$@ $$<
QBT_FIXTURES_$(1) += $(QBT_$(1))/fuzz/opt/libfz.so $(QBT_TOOLS)
endef

# qbt_arch_fixtures_ARCH: what one architecture alone has.
define qbt_arch_fixtures_i386
# --------------------------------------------------------------- time64 --
# dlsym by the plain name of a function musl redirects to its time64 symbol.
# i386 only: x86_64's time_t has always been 64 bits and musl redirects
# nothing there.
$(call qbt_exe,i386,time64/prog,time64/main.c)
endef
qbt_arch_fixtures_x86_64 :=

# $(call qbt_reshape,ARCH,MODE,IN,OUT): OUT, IN reshaped by elfcorrupt's MODE.
define qbt_reshape
$(QBT_$(1))/$(4): $(QBT_$(1))/$(3) $(QBT_TOOLS)
	@mkdir -p $$(@D)
	$(Q)$(QBT_x86_64)/errors/elfcorrupt $(2) $$< $$@
QBT_FIXTURES_$(1) += $(QBT_$(1))/$(4)
endef

# $(call qbt_layout,ARCH,DIR/,[glibc]): the layout libraries under DIR.
qbt_lay_64k := -Wl$(comma)-z$(comma)max-page-size=0x10000 -Wl$(comma)-z$(comma)common-page-size=0x10000
qbt_lay_link = -L$(QBT_$(1))/$(2) -llaydep -Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$$$$ORIGIN/..'
define qbt_layout
$(call qbt_lib,$(1),$(2)liblaydep.so,layout/libdep.c,,,$(3))
$(call qbt_lib,$(1),$(2)plain/liblay.so,layout/liblay.c,$(2)liblaydep.so,$(call qbt_lay_link,$(1),$(2)),$(3))
$(call qbt_lib,$(1),$(2)gap/liblay.so,layout/liblay.c,$(2)liblaydep.so,$(call qbt_lay_link,$(1),$(2)) $(qbt_lay_64k),$(3))
$(call qbt_reshape,$(1),palign,$(2)gap/liblay.so,$(2)gap4k/liblay.so)
$(call qbt_reshape,$(1),phmove,$(2)plain/liblay.so,$(2)phmove/liblay.so)
endef

# $(call qbt_badlib,ARCH,MODE,NAME): errors/NAME/libqbtbad.so, link/'s
# damaged by elfcorrupt's MODE.
define qbt_badlib
$(QBT_$(1))/errors/$(3)/libqbtbad.so: $(QBT_$(1))/errors/link/libqbtbad.so $(QBT_TOOLS)
	@mkdir -p $$(@D)
	$(Q)$(QBT_x86_64)/errors/elfcorrupt $(2) $$< $$@
QBT_FIXTURES_$(1) += $(QBT_$(1))/errors/$(3)/libqbtbad.so
endef

# $(call qbt_badexe,ARCH,PROG,NAME,MODE): errors/badexe_NAME/prog.{musl,qb},
# both builds of errors/PROG corrupted by elfcorrupt's MODE.
define qbt_badexe
$(QBT_$(1))/errors/badexe_$(3)/prog.musl $(QBT_$(1))/errors/badexe_$(3)/prog.qb: \
		$(QBT_$(1))/errors/badexe_$(3)/prog.%: $(QBT_$(1))/errors/$(2).% $(QBT_TOOLS)
	@mkdir -p $$(@D)
	$(Q)$(QBT_x86_64)/errors/elfcorrupt $(4) $$< $$@ && chmod +x $$@
QBT_FIXTURES_$(1) += $(QBT_$(1))/errors/badexe_$(3)/prog.musl $(QBT_$(1))/errors/badexe_$(3)/prog.qb
endef

# The ELF-damaging tools run on the host, one build for both classes; they
# find tables with the loader's own reader.
QBT_ELFREADER := $(B)/host/common/elfview.o $(B)/host/common/elfbuf.o
QBT_TOOLS := $(QBT_x86_64)/errors/elfcorrupt $(QBT_x86_64)/fuzz/elfmutate
$(QBT_TOOLS): $(QBT_x86_64)/%: $(QBT_SRC)/%.c $(QBT_ELFREADER)
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $< $(QBT_ELFREADER)
QBT_DEPFILES += $(QBT_TOOLS:=.d)

$(foreach a,$(QBT_ARCHS),$(eval $(call qbt_fixtures,$(a))))
$(foreach a,$(QBT_ARCHS),$(eval $(qbt_arch_fixtures_$(a))))
$(eval $(call suite,QBT))
