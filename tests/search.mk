# Library search (issue 10, defect 2: the runpath-chain reproduction and
# its relatives): fixtures from tests/search/ for x86_64 and, when
# configured, i386, each program linked twice: NAME.musl (musl's loader as
# PT_INTERP, the reference) and NAME.qb (quickbind's). The test also
# checks that linkopt's search (tools/linkopt/search.c over
# common/libsearch.c) finds the files the loader loads.
SRCH := $(B)/tests/search
SRCH_SRC := tests/search
SRCH_MK := tests/search.mk
SRCH_CHECK := check-search
SRCH_ARCHS := $(ARCHS)
SRCH_TESTS_ALL := tests/test_search
SRCH_OBJS = $(filter-out %/main.o,$(LINKOPT_OBJS))
SRCH_MUSL := yes
SRCH_testflags = -Itools/linkopt -DSRCH_DIR='"$(abspath $(SRCH))"' \
	-DSRCH_LOADER_DIR='"$(abspath $(B)/lib)"' -DSRCH_ARCHS='"$(ARCHS)"'
srch_c := ,
SRCH_RUNPATH := -Wl$(srch_c)--enable-new-dtags$(srch_c)-rpath$(srch_c)
SRCH_RPATH := -Wl$(srch_c)--disable-new-dtags$(srch_c)-rpath$(srch_c)

# $(call srch_lib,ARCH,OUT.so,SOURCE,PREREQUISITES,FLAGS) and
# $(call srch_exe,...): OUT.musl and OUT.qb; tests/suite.mk's fixtures
srch_lib = $(call suite_lib,SRCH,$(1),$(2),$(3),$(4),$(5))
srch_exe = $(call suite_exe,SRCH,$(1),$(2),$(3),$(4),$(5))

define srch_arch
# chain: the program's RUNPATH (or RPATH) $$ORIGIN/lib finds libcb.so for
# libca.so, which has none (the reported runpath-chain case).
$(call srch_lib,$(1),chain/lib/libcb.so,lib.c,,-DFN=cb_fn -DNAME='"cb"')
$(call srch_lib,$(1),chain/lib/libca.so,lib.c,chain/lib/libcb.so,-DFN=lib_top -DNAME='"ca"' -DNEXT=cb_fn -L$(SRCH)/$(1)/chain/lib -lcb)
$(call srch_exe,$(1),chain/main_runpath,main.c,chain/lib/libca.so,-L$(SRCH)/$(1)/chain/lib -lca -Wl$(srch_c)-rpath-link$(srch_c)$(SRCH)/$(1)/chain/lib $(SRCH_RUNPATH)'$$$$ORIGIN/lib')
$(call srch_exe,$(1),chain/main_rpath,main.c,chain/lib/libca.so,-L$(SRCH)/$(1)/chain/lib -lca -Wl$(srch_c)-rpath-link$(srch_c)$(SRCH)/$(1)/chain/lib $(SRCH_RPATH)'$$$$ORIGIN/lib')

# deep: three levels. libdb.so (no RUNPATH) finds libdw.so through libda.so's
# RUNPATH (l2, whose copy shadows l1's), and libdw.so finds libdz.so only
# through the program's RUNPATH (l1), two objects up.
$(call srch_lib,$(1),deep/l1/libdz.so,lib.c,,-DFN=dz_fn -DNAME='"dz"')
$(call srch_lib,$(1),deep/l1/libdw.so,lib.c,,-DFN=dw_fn -DNAME='"dw-l1"')
$(call srch_lib,$(1),deep/l2/libdw.so,lib.c,deep/l1/libdz.so,-DFN=dw_fn -DNAME='"dw-l2"' -DNEXT=dz_fn -L$(SRCH)/$(1)/deep/l1 -ldz)
$(call srch_lib,$(1),deep/l2/libdb.so,lib.c,deep/l2/libdw.so,-DFN=db_fn -DNAME='"db"' -DNEXT=dw_fn -L$(SRCH)/$(1)/deep/l2 -ldw -Wl$(srch_c)-rpath-link$(srch_c)$(SRCH)/$(1)/deep/l1)
$(call srch_lib,$(1),deep/l1/libda.so,lib.c,deep/l2/libdb.so,-DFN=lib_top -DNAME='"da"' -DNEXT=db_fn -L$(SRCH)/$(1)/deep/l2 -ldb -Wl$(srch_c)-rpath-link$(srch_c)$(SRCH)/$(1)/deep/l1 $(SRCH_RUNPATH)'$$$$ORIGIN/../l2')
$(call srch_exe,$(1),deep/main,main.c,deep/l1/libda.so,-L$(SRCH)/$(1)/deep/l1 -lda -Wl$(srch_c)-rpath-link$(srch_c)$(SRCH)/$(1)/deep/l2:$(SRCH)/$(1)/deep/l1 $(SRCH_RUNPATH)'$$$$ORIGIN/l1')

# dlopen: libdla.so, dlopened by name, and its dependency are found
# through the program's RUNPATH; libcaller.so's own RUNPATH is not used
# for the libonly.so it dlopens.
$(call srch_lib,$(1),dlopen/lib/libdlb.so,lib.c,,-DFN=dlb_fn -DNAME='"dlb"')
$(call srch_lib,$(1),dlopen/lib/libdla.so,lib.c,dlopen/lib/libdlb.so,-DFN=dla -DNAME='"dla"' -DNEXT=dlb_fn -L$(SRCH)/$(1)/dlopen/lib -ldlb)
$(call srch_lib,$(1),dlopen/lib/only/libonly.so,lib.c,,-DFN=only -DNAME='"only"')
$(call srch_lib,$(1),dlopen/lib/libcaller.so,caller.c,,$(SRCH_RUNPATH)'$$$$ORIGIN/only')
$(call srch_exe,$(1),dlopen/main,dlmain.c,dlopen/lib/libcaller.so,-L$(SRCH)/$(1)/dlopen/lib -lcaller $(SRCH_RUNPATH)'$$$$ORIGIN/lib')

# libpath: LD_LIBRARY_PATH comes before DT_RPATH and DT_RUNPATH alike.
$(call srch_lib,$(1),libpath/a/liblp.so,lib.c,,-DFN=lib_top -DNAME='"a"')
$(call srch_lib,$(1),libpath/b/liblp.so,lib.c,,-DFN=lib_top -DNAME='"b"')
$(call srch_exe,$(1),libpath/prog_rpath,main.c,libpath/a/liblp.so,-L$(SRCH)/$(1)/libpath/a -llp $(SRCH_RPATH)'$$$$ORIGIN/a')
$(call srch_exe,$(1),libpath/prog_runpath,main.c,libpath/a/liblp.so,-L$(SRCH)/$(1)/libpath/a -llp $(SRCH_RUNPATH)'$$$$ORIGIN/a')

# dollar: a RUNPATH with a token other than $$ORIGIN is not used at all,
# not even its $$ORIGIN element.
$(call srch_lib,$(1),dollar/lib/libdol.so,lib.c,,-DFN=lib_top -DNAME='"dol"')
$(call srch_exe,$(1),dollar/prog,main.c,dollar/lib/libdol.so,-L$(SRCH)/$(1)/dollar/lib -ldol $(SRCH_RUNPATH)'$$$$LIB/x:$$$$ORIGIN/lib')
endef

$(foreach a,$(SRCH_ARCHS),$(eval SRCH_DIR_$(a) := $(SRCH)/$(a)))
$(foreach a,$(SRCH_ARCHS),$(eval $(call srch_arch,$(a))))
$(eval $(call suite,SRCH))
