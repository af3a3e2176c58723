# The observables suite (tests/test_observe.c): what a program, a user or
# a script sees of the loader, run under musl's loader and quickbind and
# compared key by key, on each configured architecture. Fixtures: one
# probe program (tests/observe/probe.c) in a few link variants, each as
# NAME.musl (PT_INTERP = musl's loader) and NAME.qb (= quickbind), and
# libraries from one source (tests/observe/obslib.c). Everything finds
# its libraries through RUNPATH $ORIGIN, except what a test must point at.
OBS := $(B)/tests/observe
OBS_SRC := tests/observe
OBS_MK := tests/observe.mk
OBS_CHECK := check-observe
OBS_ARCHS := x86_64 $(filter i386,$(ARCHS))
OBS_TESTS_ALL := tests/test_observe tests/test_observe_tools
obs_loader = $(call suite_loader,OBS,$(1))
OBS_testflags = -DOBS_FIXTURES='"$(abspath $(OBS))"' -DOBS_ARCHS='"$(OBS_ARCHS)"' \
	-DOBS_DIFFERENCES='"$(abspath docs/DIFFERENCES.md)"' -DOBS_LOADER_x86_64='"$(call obs_loader,x86_64)"' \
	-DOBS_LOADER_i386='"$(call obs_loader,i386)"'
obs_origin := -Wl,-rpath,'$$$$ORIGIN'
obs_comma := ,

# $(call obs_lib,ARCH,OUT,FLAGS,PREREQUISITES): a library from obslib.c
obs_lib = $(call suite_lib,OBS,$(1),$(2),obslib.c,$(4),$(obs_origin) -L$(OBS)/$(1) $(3))
# $(call obs_prog,ARCH,NAME,FLAGS,PREREQUISITES): NAME.musl and NAME.qb of probe.c
obs_prog = $(call suite_exe,OBS,$(1),$(2),probe.c,$(4),-rdynamic -pthread $(obs_origin) -L$(OBS)/$(1) $(3))

define obs_fixtures
$(OBS)/$(1)/notelf.so: $(OBS_SRC)/notelf.so.in
	@mkdir -p $$(@D)
	$(Q)cp $$< $$@
OBS_FIXTURES_$(1) += $(OBS)/$(1)/notelf.so
$(call obs_lib,$(1),libobc.so,-DNAME=c)
$(call obs_lib,$(1),libobb.so,-DNAME=b -lobc,libobc.so)
$(call obs_lib,$(1),libob_a.so,-DNAME=a -lobb -lobc,libobb.so libobc.so)
$(call obs_lib,$(1),libobd.so,-DNAME=d -lobc,libobc.so)
$(call obs_lib,$(1),libobe.so,-DNAME=e -DOPENS='"libobf.so"')
$(call obs_lib,$(1),libobf.so,-DNAME=f)
$(call obs_lib,$(1),libobg.so,-DNAME=g -DOPENS='"libobmiss.so"')
$(call obs_lib,$(1),libobx.so,-DNAME=x -DDTOR_OPENS='"libobf.so"')
$(call obs_lib,$(1),libobexit.so,-DNAME=exit -DCTOR_EXIT -lobc,libobc.so)
$(call obs_lib,$(1),libobthr.so,-DNAME=thr -DTHREADS -pthread -lobc,libobc.so)
$(call obs_lib,$(1),libobtls.so,-DNAME=tls -DTLS)
$(call obs_lib,$(1),libobpa.so,-DNAME=pa -DPRE='"pa"')
$(call obs_lib,$(1),libobpb.so,-DNAME=pb -DPRE='"pb"')
$(call obs_lib,$(1),libobsa.so,-DNAME=sa -DSYM='"A"')
$(call obs_lib,$(1),libobsb.so,-DNAME=sb -DSYM='"B"')
$(call obs_lib,$(1),libobsuser.so,-DNAME=su -DUSER)
$(call obs_lib,$(1),libobundef.so,-DNAME=ud -DUNDEF_DATA)
$(call obs_lib,$(1),libobundeffn.so,-DNAME=uf -DUNDEF_FN)
$(call obs_lib,$(1),gone/libobgone.so,-DNAME=gone)
$(call obs_lib,$(1),libobmiss.so,-DNAME=miss -L$(OBS)/$(1)/gone -lobgone,gone/libobgone.so)
$(call obs_lib,$(1),libobmissref.so,-DNAME=mr -DREF_GONE -L$(OBS)/$(1)/gone -lobgone,gone/libobgone.so)
$(call obs_lib,$(1),full/libobsyms.so,-DNAME=syms -DSYMS_DEF)
$(call obs_lib,$(1),libobsyms.so,-DNAME=syms)
$(call suite_exe,OBS,$(1),symsprog,symsprog.c,full/libobsyms.so libobsyms.so,$(obs_origin) -L$(OBS)/$(1)/full -lobsyms)
$(call obs_lib,$(1),sub/libobsub.so,-DNAME=sub)
$(call obs_lib,$(1),libobstack.so,-DNAME=st -Wl$(obs_comma)-z$(obs_comma)stack-size=4194304)
$(call obs_lib,$(1),libobstack16.so,-DNAME=st16 -Wl$(obs_comma)-z$(obs_comma)stack-size=16777216)
$(call obs_prog,$(1),probe,)
$(call obs_prog,$(1),probe_deps,-lob_a -lobb -lobc -lobd -lobtls,libob_a.so libobd.so libobtls.so)
$(call obs_prog,$(1),probe_stack,-Wl$(obs_comma)-z$(obs_comma)stack-size=1048576)
$(call obs_prog,$(1),probe_sub,-L$(OBS)/$(1)/sub -lobsub,sub/libobsub.so)
$(call obs_prog,$(1),probe_miss,-lobmiss -Wl$(obs_comma)-rpath-link$(obs_comma)$(OBS)/$(1)/gone,libobmiss.so)
$(call obs_prog,$(1),probe_big,-lobstack16,libobstack16.so)
$(call obs_prog,$(1),probe_fixed,-no-pie)
$(call suite_lib,OBS,$(1),libobvg.so,vglib.c,,-O0)
$(call suite_exe,OBS,$(1),vgprog,vgprog.c,libobvg.so,-O0 $(obs_origin) -lobvg)
endef
$(foreach a,$(OBS_ARCHS),$(eval OBS_DIR_$(a) := $(OBS)/$(a)))
$(foreach a,$(OBS_ARCHS),$(eval $(call obs_fixtures,$(a))))
$(eval $(call suite,OBS))
# the tools' cases run linkopt
check-observe: all
