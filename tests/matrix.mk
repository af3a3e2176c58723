# The relocation matrix (issue 10): every relocation type the loader
# implements, in every place it can appear (.data, RELRO, .tdata/.tbss,
# .init_array, GOT/PLT, text), in every kind of object (PIE, ET_EXEC, a
# library needed at start, libraries dlopened RTLD_LOCAL and RTLD_GLOBAL),
# read by the main thread, a thread created before the dlopens and one
# created after. tests/matrix/gen.sh generates the cells per architecture
# and family: std (musl's loader is the reference), ext (what musl's
# loader lacks: IRELATIVE, IFUNC targets, PC64, text relocations in a
# program; checked against expected values) and relr (std linked with
# DT_RELR, which musl 1.2.3 predates). test_matrix_<arch> runs them.
# Not in the matrix: R_X86_64_32 and R_X86_64_32S (GNU ld refuses to
# make them dynamic, in a library or a program) and R_*_NONE (nothing to
# check). PC-relative cells in .tdata are left out: they would be
# relative to the image, which no thread reads.

MX_SRC := tests/matrix
MX_MK := tests/matrix.mk
MX_CHECK := check-matrix
MX_ARCHS := $(ARCHS)
MX_TESTS := tests/test_matrix
MX_MUSL := yes
MX_testflags = -DMX_ARCH='"$(1)"' -DMX_DIR='"$(abspath $(MX_$(1)))"' -DMX_SRC='"$(abspath $(MX_SRC))"' \
	-DMX_LOADER='"$(call suite_loader,MX,$(1))"' -DMX_MUSL_LDSO='"$(MUSL_LDSO_$(1))"'
MX_CC_x86_64 := $(MUSL_CC_x86_64)
MX_CC_i386 := $(MUSL_CC_i386)
MX_MUSL_LDSO_x86_64 := $(MUSL_LDSO_x86_64)
MX_MUSL_LDSO_i386 := $(MUSL_LDSO_i386)
MX_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g -I$(MX_SRC)
MX_FAMS := std ext relr
MX_DEPS := $(MX_SRC)/mx.h tests/matrix.mk
mx_c := ,
MX_LDX_relr := -Wl$(mx_c)-z$(mx_c)pack-relative-relocs
MX_RPATH := -Wl$(mx_c)-rpath$(mx_c)'$$$$ORIGIN' -Wl$(mx_c)-z$(mx_c)notext

# $(call mx_obj,ARCH,FAM,ROLE,PFX,MODEL,OUT): OUT.o from the four sources
define mx_obj
$(6).o: $(MX_$(1))/gen/$(2)-$(3).cells $(MX_DEPS)
	@mkdir -p $$(@D)
	@echo "CC[$(1) matrix] $$@"
	$(Q)g=$(MX_$(1))/gen/$(2)-$(3) && cc="$(MX_CC_$(1)) $(MX_CFLAGS) -DPFX=$(4)" && \
		$$$$cc $(5) -c -o $(6).s.o $$$$g.S && $$$$cc -fPIC -c -o $(6).p.o $$$${g}_p.c && \
		$$$$cc $(5) -c -o $(6).n.o $$$${g}_n.c && \
		$$$$cc -fPIC -mtls-dialect=gnu2 -c -o $(6).d.o $$$${g}_d.c && \
		$(MX_CC_$(1)) -nostdlib -r -o $$@ $(6).s.o $(6).p.o $(6).n.o $(6).d.o
endef

# $(call mx_fam,ARCH,FAM)
define mx_fam
$(foreach r,pie exe lib,
$(MX_$(1))/gen/$(2)-$(r).cells: $(MX_SRC)/gen.sh tests/matrix.mk
	@mkdir -p $$(@D)
	@echo "GEN $$@"
	$(Q)sh $(MX_SRC)/gen.sh $(1) $(2) $(r) $(MX_$(1))/gen/$(2)-$(r))
$(MX_$(1))/$(2)/libmxt.so: $(MX_SRC)/mxt.c $(MX_DEPS)
	@mkdir -p $$(@D)
	@echo "CC[$(1) matrix] $$@"
	$(Q)$(MX_CC_$(1)) $(MX_CFLAGS) -fPIC -shared -o $$@ $$<
$(MX_$(1))/$(2)/libmxi.so: $(MX_SRC)/mxi.c $(MX_DEPS)
	@mkdir -p $$(@D)
	@echo "CC[$(1) matrix] $$@"
	$(Q)$(MX_CC_$(1)) $(MX_CFLAGS) -fPIC -shared -o $$@ $$<
$(foreach p,n l g,
$(call mx_obj,$(1),$(2),lib,$(p)_,-fPIC,$(MX_$(1))/$(2)/lib$(p))
$(MX_$(1))/$(2)/libmx$(p).so: $(MX_$(1))/$(2)/lib$(p).o $(MX_$(1))/$(2)/libmxt.so $(MX_$(1))/$(2)/libmxi.so
	@echo "LD[$(1) matrix] $$@"
	$(Q)$(MX_CC_$(1)) -shared -Wl,-soname,libmx$(p).so -o $$@ $$< $(MX_LDX_$(2)) \
		-L$$(@D) -lmxt -lmxi $(MX_RPATH))
$(call mx_obj,$(1),$(2),pie,p_,-fPIE,$(MX_$(1))/$(2)/pie)
$(call mx_obj,$(1),$(2),exe,p_,-fno-pie,$(MX_$(1))/$(2)/exe)
$(foreach r,pie exe,$(foreach w,musl qb,
$(MX_$(1))/$(2)/$(r).$(w): $(MX_SRC)/main.c $(MX_$(1))/$(2)/$(r).o $(MX_$(1))/$(2)/libmxn.so $(MX_DEPS)
	@echo "LD[$(1) matrix] $$@"
	$(Q)$(MX_CC_$(1)) $(MX_CFLAGS) -$(if $(filter exe,$(r)),no-)pie $(if $(filter exe,$(r)),-fno-pie) \
		-DROLE='"$(r)"' -Wl,--dynamic-linker=$(if $(filter qb,$(w)),$(call suite_loader,MX,$(1)),$(MX_MUSL_LDSO_$(1))) \
		-o $$@ $$< $(MX_$(1))/$(2)/$(r).o $(if $(filter pie,$(r)),$(MX_LDX_$(2))) \
		-L$(MX_$(1))/$(2) -lmxn -lmxt -lmxi -pthread $(MX_RPATH))
$(MX_$(1))/$(2)/$(r).expected: $(MX_SRC)/expect.sh $(MX_$(1))/gen/$(2)-$(r).cells $(MX_$(1))/gen/$(2)-lib.cells
	@mkdir -p $$(@D)
	$(Q)sh $(MX_SRC)/expect.sh $(r) $(MX_$(1))/gen/$(2)-$(r).cells $(MX_$(1))/gen/$(2)-lib.cells > $$@)
MX_FIXTURES_$(1) += $(foreach r,pie exe,$(MX_$(1))/$(2)/$(r).musl $(MX_$(1))/$(2)/$(r).qb $(MX_$(1))/$(2)/$(r).expected) \
	$(foreach p,n l g,$(MX_$(1))/$(2)/libmx$(p).so)
endef

$(foreach a,$(MX_ARCHS),$(eval MX_$(a) := $(B)/tests/matrix/$(a)) $(eval MX_DIR_$(a) := $(MX_$(a))))

$(foreach a,$(MX_ARCHS),$(foreach f,$(MX_FAMS),$(eval $(call mx_fam,$(a),$(f)))))
$(eval $(call suite,MX))
