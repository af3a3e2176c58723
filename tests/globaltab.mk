# The global table (ldso/ext/globaltab.c, issue 15): one fixture per
# architecture whose start-up scope has an LD_PRELOAD interposer, weak
# and strong definitions of one name in two libraries, a library with
# only DT_HASH (probed the standard way at its place in the order), one
# whose GNU hash has an even number of buckets, a symbol with hidden and default
# versions; the program then dlopens LOCAL and GLOBAL libraries and
# closes one. Run under musl's loader (the reference) and under quickbind
# with the table forced on (LD_GLOBALTAB=1), off, and left to decide.
GT := $(B)/tests/globaltab
GT_SRC := tests/globaltab
GT_MK := tests/globaltab.mk
GT_CHECK := check-globaltab
GT_ARCHS := $(ARCHS)
GT_TESTS_ALL := tests/test_globaltab
GT_MUSL := yes
GT_testflags = -DGT_DIR='"$(abspath $(GT))"' -DGT_LOADER_DIR='"$(abspath $(B)/lib)"' \
	-DGT_LINKOPT='"$(abspath $(B)/bin/linkopt)"' -DGT_ARCHS='"$(ARCHS)"'
gt_c := ,

# $(call gt_lib,ARCH,OUT.so,SOURCE,PREREQUISITES,FLAGS): tests/suite.mk's
gt_lib = $(call suite_lib,GT,$(1),$(2),$(3),$(4),$(5))

define gt_arch
$(call gt_lib,$(1),libgtpre.so,lib.c,,-DNAME='"pre"' -DDEF_WHO -DDEF_WEAK)
$(call gt_lib,$(1),libgta.so,lib.c,,-DNAME='"a"' -DDEF_WHO -DDEF_WEAK -DDEF_STRONG_FIRST -DDEF_MAINDEF -DCALLS)
$(call gt_lib,$(1),libgtsysv.so,lib.c,,-DNAME='"sysv"' -DDEF_ORDER -Wl$(gt_c)--hash-style=sysv)
$(call gt_lib,$(1),libgtb.so,lib.c,,-DNAME='"b"' -DDEF_WHO -DDEF_STRONG -DDEF_WEAK_SECOND -DDEF_ORDER)
$(call gt_lib,$(1),libgttiny.so,lib.c,,-DNAME='"tiny"' -DDEF_TINY -Wl$(gt_c)--version-script=$(GT_SRC)/tiny.map)
$(call gt_lib,$(1),old/libgtv.so,ver1.c,,-Wl$(gt_c)--version-script=$(GT_SRC)/ver1.map)
$(call gt_lib,$(1),libgtv.so,ver2.c,,-Wl$(gt_c)--version-script=$(GT_SRC)/ver2.map)
$(call gt_lib,$(1),libgtvold.so,lib.c,old/libgtv.so,-DNAME='"vold"' -DUSES_VFUNC -L$(GT)/$(1)/old -lgtv)
$(call gt_lib,$(1),libgtlocal.so,lib.c,,-DNAME='"local"' -DDEF_LOCAL -DDEF_WHO)
$(call gt_lib,$(1),libgtglob.so,lib.c,,-DNAME='"glob"' -DDEF_WHO -DDEF_ORDER -DDEF_LATE)
$(call gt_lib,$(1),libgtglob2.so,lib.c,,-DNAME='"glob2"' -DDEF_LATE2)
$(call gt_lib,$(1),libgtuser.so,lib.c,,-DNAME='"user"' -DUSES_LATE)
$(call suite_prog,GT,$(1),prog.musl,main.c,libgta.so libgtsysv.so libgtb.so libgttiny.so libgtv.so libgtvold.so,\
	-lgta -lgtsysv -lgtb -lgttiny -lgtv -lgtvold -Wl$(gt_c)-rpath$(gt_c)'$$$$ORIGIN')
endef
$(foreach a,$(GT_ARCHS),$(eval GT_DIR_$(a) := $(GT)/$(a)))
$(foreach a,$(GT_ARCHS),$(eval $(call gt_arch,$(a))))
$(eval $(call suite,GT))
