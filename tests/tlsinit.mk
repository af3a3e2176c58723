# Issue 10, defect 1 (tls-pointer-init): TLS initial images that hold
# addresses, relocated before any thread's copy is taken. The fixtures of
# tests/tls-pointer-init/ are built for every configured architecture and
# run under musl's loader (the reference) and quickbind (PT_INTERP and
# direct invocation) by build/tests/ARCH/test_tls_init (make check-tlsinit).

TI_SRC := tests/tls-pointer-init
TI_MK := tests/tlsinit.mk
TI_CHECK := check-tlsinit
TI_ARCHS := $(ARCHS)
TI_TESTS := tests/test_tls_init
TI_MUSL := yes
TI_testflags = -Itests/loader -DTI_ARCH='"$(1)"'
ti_comma := ,

# exe is built as reported (-O0: at -O1 gcc folds the never-written s to a
# constant).
define ti_arch
$(call suite_lib,TI,$(1),libtlsinit.so,lib.c)
$(call suite_lib,TI,$(1),libtlsdl.so,dl.c,libtlsinit.so,-ltlsinit)
$(call suite_exe,TI,$(1),exe,exe.c,,-O0)
$(call suite_exe,TI,$(1),exe-nopie,exe.c,,-O0 -fno-pie -no-pie)
$(call suite_exe,TI,$(1),main,main.c,libtlsinit.so,-ltlsinit -Wl$(ti_comma)-rpath$(ti_comma)'$$$$ORIGIN')
$(call suite_exe,TI,$(1),thr,thr.c,libtlsinit.so,-pthread -ltlsinit -Wl$(ti_comma)-rpath$(ti_comma)'$$$$ORIGIN')
endef
$(foreach a,$(TI_ARCHS),$(eval TI_DIR_$(a) := $(B)/tests/tlsinit/$(a)))
$(foreach a,$(TI_ARCHS),$(eval $(call ti_arch,$(a))))
$(eval $(call suite,TI))
