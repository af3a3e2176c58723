# The observables suite (tests/test_observe.c): what a program, a user or
# a script sees of the loader, run under musl's loader and quickbind and
# compared key by key, on each configured architecture. Fixtures: one
# probe program (tests/observe/probe.c) in a few link variants, each as
# NAME.musl (PT_INTERP = musl's loader) and NAME.qb (= quickbind), and
# libraries from one source (tests/observe/obslib.c). Everything finds
# its libraries through RUNPATH $ORIGIN, except what a test must point at.
OBS := $(B)/tests/observe
OBS_SRC := tests/observe
OBS_ARCHS := x86_64 $(filter i386,$(ARCHS))
OBS_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g
obs_cc_x86_64 := musl-gcc
obs_cc_i386 := i386-linux-musl-gcc
obs_loader = $(abspath $(B)/lib/ld-quickbind-$(1).so.1)
obs_origin := -Wl,-rpath,'$$$$ORIGIN'
obs_comma := ,
obs_interp_x86_64 := -Wl,--dynamic-linker=$(call obs_loader,x86_64)
obs_interp_i386 := -Wl,--dynamic-linker=$(call obs_loader,i386)
OBS_FIXTURES :=

# $(call obs_lib,ARCH,OUT,FLAGS,PREREQUISITES)
define obs_lib
$(OBS)/$(1)/$(2): $(OBS_SRC)/obslib.c $(addprefix $(OBS)/$(1)/,$(4)) tests/observe.mk
	@mkdir -p $$(@D)
	@echo "CC[$(1) observe] $$@"
	$(Q)$(obs_cc_$(1)) $(OBS_CFLAGS) -fPIC -shared -Wl,-soname,$$(notdir $(2)) $(obs_origin) \
		-o $$@ $$< -L$(OBS)/$(1) $(3)
OBS_FIXTURES += $(OBS)/$(1)/$(2)
endef

# $(call obs_prog,ARCH,NAME,FLAGS,PREREQUISITES): NAME.musl and NAME.qb
define obs_prog
$(OBS)/$(1)/$(2).musl $(OBS)/$(1)/$(2).qb: $(OBS)/$(1)/$(2).%: $(OBS_SRC)/probe.c \
		$(addprefix $(OBS)/$(1)/,$(4)) $(OBS)/$(1)/interp.stamp tests/observe.mk
	@mkdir -p $$(@D)
	@echo "CC[$(1) observe] $$@"
	$(Q)$(obs_cc_$(1)) $(OBS_CFLAGS) -rdynamic -pthread $(obs_origin) \
		$$(if $$(filter qb,$$*),$$(obs_interp_$(1))) \
		-o $$@ $$< -L$(OBS)/$(1) $(3)
OBS_FIXTURES += $(OBS)/$(1)/$(2).musl $(OBS)/$(1)/$(2).qb
endef

define obs_fixtures
$(OBS)/$(1)/interp.stamp: obs-force
	@mkdir -p $$(@D)
	$(Q)echo '$(call obs_loader,$(1))' | cmp -s - $$@ || echo '$(call obs_loader,$(1))' > $$@
$(OBS)/$(1)/notelf.so: $(OBS_SRC)/notelf.so.in
	@mkdir -p $$(@D)
	$(Q)cp $$< $$@
OBS_FIXTURES += $(OBS)/$(1)/notelf.so
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
$(OBS)/$(1)/libobvg.so: $(OBS_SRC)/vglib.c tests/observe.mk
	@mkdir -p $$(@D)
	@echo "CC[$(1) observe] $$@"
	$(Q)$(obs_cc_$(1)) $(OBS_CFLAGS) -O0 -fPIC -shared -Wl,-soname,libobvg.so -o $$@ $$<
$(OBS)/$(1)/vgprog.musl $(OBS)/$(1)/vgprog.qb: $(OBS)/$(1)/vgprog.%: $(OBS_SRC)/vgprog.c \
		$(OBS)/$(1)/libobvg.so $(OBS)/$(1)/interp.stamp tests/observe.mk
	@echo "CC[$(1) observe] $$@"
	$(Q)$(obs_cc_$(1)) $(OBS_CFLAGS) -O0 $(obs_origin) $$(if $$(filter qb,$$*),$$(obs_interp_$(1))) \
		-o $$@ $$< -L$(OBS)/$(1) -lobvg
OBS_FIXTURES += $(OBS)/$(1)/libobvg.so $(OBS)/$(1)/vgprog.musl $(OBS)/$(1)/vgprog.qb
endef
$(foreach a,$(OBS_ARCHS),$(eval $(call obs_fixtures,$(a))))

OBS_BINS := $(B)/tests/test_observe $(B)/tests/test_observe_tools
$(OBS_BINS): $(B)/tests/%: tests/%.c $(B)/tests/libqbtest.a tests/observe.mk
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DOBS_FIXTURES='"$(abspath $(OBS))"' \
		-DOBS_ARCHS='"$(OBS_ARCHS)"' -DOBS_README='"$(abspath README.md)"' \
		-DOBS_LOADER_x86_64='"$(call obs_loader,x86_64)"' -DOBS_LOADER_i386='"$(call obs_loader,i386)"' \
		-o $@ $< $(B)/tests/libqbtest.a -lcriterion

.PHONY: check-observe obs-force
obs-force:
check-observe: $(OBS_FIXTURES) $(OBS_BINS) all
	@fail=0; for t in $(OBS_BINS); do echo "== $$t"; $$t --jobs=2 || fail=1; done; \
	[ $$fail = 0 ] && echo "check-observe: passed" || { echo "check-observe: FAILURES"; exit 1; }

CHECK_DEPS += $(OBS_FIXTURES)
CHECK_BINS += $(OBS_BINS)
