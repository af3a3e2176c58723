# Integration tests of the loader's run-time interface (dl* API, dynamic
# TLS, threads and fork, gdb, valgrind, command line and ldd, secure mode):
# real musl programs and libraries from tests/runtime/, compared with
# musl's loader where it has the feature.
#
# Programs are linked twice: NAME.musl (PT_INTERP = musl's loader) and
# NAME.qb (PT_INTERP = QBR_LOADER); direct invocation runs NAME.musl
# through the loader under test.

QBR := $(B)/tests/runtime
QBR_SRC := tests/runtime
QBR_MK := tests/runtime.mk
QBR_CHECK := check-runtime
QBR_ARCHS := x86_64
QBR_DIR_x86_64 := $(QBR)
QBR_TESTS := $(addprefix tests/test_runtime_,dl threads tools secure unload)
QBR_MUSL := yes
QBR_testflags = -Itests/loader -DQBR_SRCDIR='"$(abspath .)"'
qbr_comma := ,

# $(call qbr_lib,OUT.so,SOURCE,PREREQUISITES,FLAGS) and
# $(call qbr_exe,OUT,SOURCE,PREREQUISITES,FLAGS): OUT.musl and OUT.qb;
# tests/suite.mk's fixtures, named here by their paths
qbr_rel = $(patsubst $(QBR)/%,%,$(1))
qbr_lib = $(call suite_lib,QBR,x86_64,$(call qbr_rel,$(1)),$(patsubst $(QBR_SRC)/%,%,$(2)),$(call qbr_rel,$(3)),$(4))
qbr_exe = $(call suite_exe,QBR,x86_64,$(call qbr_rel,$(1)),$(patsubst $(QBR_SRC)/%,%,$(2)),$(call qbr_rel,$(3)),$(4))

$(eval $(call qbr_lib,$(QBR)/libqrdep.so,$(QBR_SRC)/dep.c))
$(eval $(call qbr_lib,$(QBR)/libqrmid.so,$(QBR_SRC)/mid.c,$(QBR)/libqrdep.so,-L$(QBR) -lqrdep))
$(eval $(call qbr_lib,$(QBR)/libqrtop.so,$(QBR_SRC)/top.c,$(QBR)/libqrmid.so,-L$(QBR) -lqrmid -lqrdep))
$(eval $(call qbr_lib,$(QBR)/libqrglob.so,$(QBR_SRC)/glob.c))
$(eval $(call qbr_lib,$(QBR)/libqruser.so,$(QBR_SRC)/user.c))
$(eval $(call qbr_lib,$(QBR)/libqruserdata.so,$(QBR_SRC)/userdata.c))
$(eval $(call qbr_lib,$(QBR)/libqrunload.so,$(QBR_SRC)/unload.c))
$(eval $(call qbr_lib,$(QBR)/libqratexit.so,$(QBR_SRC)/atexit.c))
$(eval $(call qbr_lib,$(QBR)/libqrtlsgd.so,$(QBR_SRC)/tls.c,,-mtls-dialect=gnu))
$(eval $(call qbr_lib,$(QBR)/libqrtlsdesc.so,$(QBR_SRC)/tls.c,,-mtls-dialect=gnu2))
$(eval $(call qbr_lib,$(QBR)/libqrwrap.so,$(QBR_SRC)/wrap.c))
$(eval $(call qbr_lib,$(QBR)/libqrtarget.so,$(QBR_SRC)/target.c))
$(eval $(call qbr_lib,$(QBR)/libqrbaddep.so,$(QBR_SRC)/baddep.c))
$(eval $(call qbr_lib,$(QBR)/libqrbad.so,$(QBR_SRC)/bad.c,$(QBR)/libqrbaddep.so,-L$(QBR) -lqrbaddep))
# libqrgone.so stays in link/: the loader never finds it.
$(eval $(call qbr_lib,$(QBR)/link/libqrgone.so,$(QBR_SRC)/gone.c))
$(eval $(call qbr_lib,$(QBR)/libqrneedsgone.so,$(QBR_SRC)/needsgone.c,$(QBR)/libqrbaddep.so $(QBR)/link/libqrgone.so,-L$(QBR) -L$(QBR)/link -lqrbaddep -lqrgone))
$(foreach i,0 1 2 3,$(eval $(call qbr_lib,$(QBR)/libqrs$(i).so,$(QBR_SRC)/stress.c,,-DID=$(i))))
$(eval $(call qbr_lib,$(QBR)/libqrsiba.so,$(QBR_SRC)/siba.c))
$(eval $(call qbr_lib,$(QBR)/libqrsibb.so,$(QBR_SRC)/sibb.c))
$(eval $(call qbr_lib,$(QBR)/libqrsibroot.so,$(QBR_SRC)/sibroot.c,$(QBR)/libqrsiba.so $(QBR)/libqrsibb.so,-L$(QBR) -lqrsiba -lqrsibb))
$(eval $(call qbr_lib,$(QBR)/libqrgdb.so,$(QBR_SRC)/gdblib.c))
$(eval $(call qbr_lib,$(QBR)/libqrpre.so,$(QBR_SRC)/pre.c))
$(eval $(call qbr_exe,$(QBR)/rt,$(QBR_SRC)/rt.c,,-rdynamic -pthread))
$(eval $(call qbr_exe,$(QBR)/thr,$(QBR_SRC)/thr.c,,-pthread))
$(eval $(call qbr_exe,$(QBR)/next,$(QBR_SRC)/next.c,$(QBR)/libqrwrap.so $(QBR)/libqrtarget.so,-L$(QBR) -lqrwrap -lqrtarget))
$(eval $(call qbr_exe,$(QBR)/gdbprog,$(QBR_SRC)/gdbprog.c,$(QBR)/libqrdep.so,-L$(QBR) -lqrdep))
$(eval $(call qbr_exe,$(QBR)/lddprog,$(QBR_SRC)/lddprog.c,$(QBR)/libqrtop.so,-L$(QBR) -lqrtop -lqrdep -Wl$(qbr_comma)-rpath-link$(qbr_comma)$(QBR)))

# Secure mode: the test copies sec/ to a directory of its own, makes
# secprog set-uid root and runs it as nobody. evil/ is named only by the
# environment; sub/libqrorig.so reaches sub/dep/ through $ORIGIN.
QBR_SEC := $(QBR)/sec
$(eval $(call qbr_exe,$(QBR_SEC)/secprog,$(QBR_SRC)/secprog.c,,))
$(eval $(call qbr_lib,$(QBR_SEC)/evil/libqrsec.so,$(QBR_SRC)/sec.c,,-DSEC_WHICH='"evil"'))
$(eval $(call qbr_lib,$(QBR_SEC)/sub/dep/libqrodep.so,$(QBR_SRC)/odep.c))
$(eval $(call qbr_lib,$(QBR_SEC)/sub/libqrorig.so,$(QBR_SRC)/orig.c,$(QBR_SEC)/sub/dep/libqrodep.so,-L$(QBR_SEC)/sub/dep -lqrodep -Wl$(qbr_comma)--enable-new-dtags$(qbr_comma)-rpath$(qbr_comma)'$$$$ORIGIN/dep'))
# secexec (set-uid in the test) becomes root and runs envdump, which
# lists the environment it got; evil/libqrevil.so announces itself if an
# LD_PRELOAD reaches it. secorig's RUNPATH is $$ORIGIN/lib, then good/.
$(eval $(call qbr_exe,$(QBR_SEC)/secexec,$(QBR_SRC)/secexec.c,,))
$(eval $(call qbr_exe,$(QBR_SEC)/envdump,$(QBR_SRC)/envdump.c,,))
$(eval $(call qbr_lib,$(QBR_SEC)/evil/libqrevil.so,$(QBR_SRC)/evilctor.c))
$(eval $(call qbr_lib,$(QBR_SEC)/good/libqrsec.so,$(QBR_SRC)/sec.c,,-DSEC_WHICH='"good"'))
$(eval $(call qbr_exe,$(QBR_SEC)/secorig,$(QBR_SRC)/secorig.c,$(QBR_SEC)/good/libqrsec.so,-L$(QBR_SEC)/good -lqrsec -Wl$(qbr_comma)--enable-new-dtags$(qbr_comma)-rpath$(qbr_comma)'$$$$ORIGIN/lib:$(abspath $(QBR_SEC))/good'))

$(eval $(call suite,QBR))
# the tools' cases run linkopt
check-runtime: all
