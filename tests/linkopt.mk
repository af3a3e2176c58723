# linkopt tests: unit tests over the library code and integration tests
# over fixtures linked by GNU ld, gold, lld and mold, 64- and 32-bit, glibc and musl.
LOT := $(B)/tests/linkopt
LINKOPT_LIBOBJS := $(filter-out %/main.o,$(LINKOPT_OBJS))

# variant: compiler and flags. gcc finds ld.lld / ld.mold through -B for the
# cross compilers, whose own bin directory has neither.
LOT_LDBIN := $(LOT)/ldbin
LOT_CC_g64bfd  := gcc -fuse-ld=bfd
LOT_CC_g64lld  := gcc -fuse-ld=lld
LOT_CC_g64mold := gcc -fuse-ld=mold
LOT_CC_m64bfd  := musl-gcc -fuse-ld=bfd
LOT_CC_m64lld  := musl-gcc -fuse-ld=lld
LOT_CC_m64mold := musl-gcc -fuse-ld=mold
LOT_CC_m32bfd  := i386-linux-musl-gcc
LOT_CC_m32lld  := i386-linux-musl-gcc -B$(LOT_LDBIN) -fuse-ld=lld
LOT_CC_m32mold := i386-linux-musl-gcc -B$(LOT_LDBIN) -fuse-ld=mold
LOT_CC_g32bfd  := i686-linux-gnu-gcc
LOT_CC_g32lld  := i686-linux-gnu-gcc -B$(LOT_LDBIN) -fuse-ld=lld
LOT_CC_g64sysv := gcc -fuse-ld=bfd -Wl,--hash-style=sysv
LOT_CC_m32sysv := i386-linux-musl-gcc -Wl,--hash-style=sysv
LOT_CC_g64gold := gcc -fuse-ld=gold
LOT_CC_m64gold := musl-gcc -fuse-ld=gold
LOT_VARIANTS := g64bfd g64lld g64mold m64bfd m64lld m64mold m32bfd m32lld m32mold g32bfd g32lld g64sysv m32sysv \
	g64gold m64gold

$(LOT_LDBIN)/ld.lld $(LOT_LDBIN)/ld.mold:
	@mkdir -p $(@D)
	$(Q)ln -sf $$(command -v $(if $(findstring lld,$@),ld.lld,mold)) $@

define lot_variant
$(LOT)/$(1)/libb.so: tests/linkopt/libb.c | $(LOT_LDBIN)/ld.lld $(LOT_LDBIN)/ld.mold
	@mkdir -p $$(@D)
	@echo "CC[$(1)] $$@"
	$(Q)$(LOT_CC_$(1)) -shared -fPIC -O1 -o $$@ $$<
$(LOT)/$(1)/libb2.so: tests/linkopt/libb2.c | $(LOT_LDBIN)/ld.lld $(LOT_LDBIN)/ld.mold
	@mkdir -p $$(@D)
	$(Q)$(LOT_CC_$(1)) -shared -fPIC -O1 -Wl,-soname,libb.so -o $$@ $$<
$(LOT)/$(1)/liba.so: tests/linkopt/liba.c $(LOT)/$(1)/libb.so
	@echo "CC[$(1)] $$@"
	$(Q)$(LOT_CC_$(1)) -shared -fPIC -O1 -o $$@ $$< -L$(LOT)/$(1) -lb -Wl,-rpath,'$$$$ORIGIN'
$(LOT)/$(1)/prog: tests/linkopt/prog.c $(LOT)/$(1)/liba.so $(LOT)/$(1)/libb.so
	@echo "CC[$(1)] $$@"
	$(Q)$(LOT_CC_$(1)) -O1 -o $$@ $$< -L$(LOT)/$(1) -la -lb -Wl,-rpath,'$$$$ORIGIN' -Wl,-rpath-link,$(LOT)/$(1)
LOT_FIXTURES += $(LOT)/$(1)/prog $(LOT)/$(1)/liba.so $(LOT)/$(1)/libb.so $(LOT)/$(1)/libb2.so
endef
$(foreach v,$(LOT_VARIANTS),$(eval $(call lot_variant,$(v))))

$(B)/tests/linkopt_unit: tests/linkopt_unit.c $(LINKOPT_LIBOBJS)
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itools/linkopt -o $@ $< $(LINKOPT_LIBOBJS) -lcriterion

$(B)/tests/linkopt_integ: tests/linkopt_integ.c tests/linkopt_fixture.c tests/linkopt_fixture.h $(LINKOPT_LIBOBJS) $(B)/tests/libqbtest.a
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itools/linkopt -Itests -DLOT_DIR='"$(LOT)"' -DLINKOPT_BIN='"$(B)/bin/linkopt"' -DLINKOPT_WRAP_DIR='"$(B)/lib/linkopt"' \
		-o $@ tests/linkopt_integ.c tests/linkopt_fixture.c $(LINKOPT_LIBOBJS) $(B)/tests/libqbtest.a -lcriterion

CHECK_DEPS += $(LOT_FIXTURES) $(B)/bin/linkopt $(LINKOPT_WRAP)
CHECK_BINS += $(B)/tests/linkopt_unit $(B)/tests/linkopt_integ

$(B)/tests/linkopt_edit: tests/linkopt_edit.c tests/linkopt_fixture.c tests/linkopt_fixture.h $(LINKOPT_LIBOBJS) $(B)/tests/libqbtest.a
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itools/linkopt -Itests -DLOT_DIR='"$(LOT)"' -DLINKOPT_BIN='"$(B)/bin/linkopt"' -DQB_LIB_DIR='"$(B)/lib"' \
		-o $@ tests/linkopt_edit.c tests/linkopt_fixture.c $(LINKOPT_LIBOBJS) $(B)/tests/libqbtest.a -lcriterion

CHECK_BINS += $(B)/tests/linkopt_edit

$(B)/tests/linkopt_attrs: tests/linkopt_attrs.c tests/linkopt_fixture.c tests/linkopt_fixture.h $(LINKOPT_LIBOBJS) $(B)/tests/libqbtest.a
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itools/linkopt -Itests -DLOT_DIR='"$(LOT)"' -DLINKOPT_BIN='"$(B)/bin/linkopt"' \
		-o $@ tests/linkopt_attrs.c tests/linkopt_fixture.c $(LINKOPT_LIBOBJS) $(B)/tests/libqbtest.a -lcriterion

CHECK_BINS += $(B)/tests/linkopt_attrs
