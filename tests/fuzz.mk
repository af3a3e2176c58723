# Fuzzing. `make fuzz` runs each libFuzzer target for FUZZ_SECONDS:
#   linkopt         linkopt's reader and writer (--dump, --check, -o, then
#                   --dump and --check on what it wrote), ASan+UBSan;
#   loader-x86_64   the loader's header, segment, dynamic-section and table
#                   checks (qb_map_file and what it calls) and its symbol
#                   lookup over what they accept, built for the host from
#                   ldso/'s own sources, ASan+UBSan;
#   loader-i386     the same sources compiled for the 32-bit class (i686),
#                   UBSan (ASan's shadow memory does not work under the
#                   qemu-user that runs i386 code where the kernel cannot);
#   main            the real loaders (build/lib) and the main program: each
#                   input, a program, run with --list and through PT_INTERP
#                   (traced, stopped at its entry point), see
#                   tests/fuzz/fuzz_main.c; both classes.
# Seed corpora are real objects built here by musl-gcc and
# i386-linux-musl-gcc, and linkopt-optimized copies of them. Corpora grow
# in build/fuzz/corpus/TARGET across runs; crashes land in
# build/fuzz/crashes/TARGET/ and make `make fuzz` fail. Each crash, once
# fixed, goes to tests/fuzz/regress/ (see tests/fuzz/README.md), which
# `make check` runs through the loader and linkopt. Options: FUZZ_SECONDS
# (per target), FUZZ_RUN (which targets), FUZZ_DIR (corpora, crashes, logs).
FZ := $(B)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g -fno-omit-frame-pointer
FUZZ_ASAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# The loader reaches its objects through base + vaddr with base 0 for a
# fixed-address program, and x86 reads at any alignment: those two UBSan
# checks would flag the loader's design, not its bugs.
FUZZ_LDSO_SAN := -fno-sanitize=alignment,pointer-overflow
# The loader's files this target needs, and all of common/ it uses (make
# check builds the targets, so a renamed or split file shows up there).
FUZZ_LDSO_SRCS := ldso/map.c ldso/dso.c ldso/version.c ldso/lookup.c ldso/objindex.c \
	$(filter-out ldso/ext/none.c ldso/ext/registry.c ldso/ext/unload.c,$(wildcard ldso/ext/*.c)) \
	$(filter common/%,$(LDSO_SRCS))
FUZZ_LO_SRCS := $(filter-out %/main.c,$(LINKOPT_SRCS))
FUZZ_TARGETS := linkopt loader-x86_64 loader-i386 main

fz_flags_linkopt := $(FUZZ_ASAN) -Icommon -Itools/linkopt -DFUZZ_SYSROOT='"$(abspath $(FZ)/sysroot)"'
fz_flags_loader-x86_64 := $(FUZZ_ASAN) $(FUZZ_LDSO_SAN) $(MUSL_FACTS_x86_64) -Ildso -Ildso/ext -Icommon \
	-Iarch/x86_64
fz_flags_loader-i386 := --target=i686-linux-gnu -fsanitize=undefined -fno-sanitize-recover=all \
	$(FUZZ_LDSO_SAN) $(MUSL_FACTS_i386) -Ildso -Ildso/ext -Icommon -Iarch/i386
fz_srcs_linkopt := $(FUZZ_LO_SRCS)
fz_srcs_loader-x86_64 := $(FUZZ_LDSO_SRCS)
fz_srcs_loader-i386 := $(FUZZ_LDSO_SRCS)
fz_main_linkopt := tests/fuzz/fuzz_linkopt.c
fz_main_loader-x86_64 := tests/fuzz/fuzz_loader.c
fz_main_loader-i386 := tests/fuzz/fuzz_loader.c
# main runs the loaders in processes of their own: no sanitizer of its own
# (its harness is small), no loader sources; the seed programs find their
# library in the seed directories.
fz_flags_main := -DFZM_LOADER_x86_64='"$(abspath $(B)/lib/ld-quickbind-x86_64.so.1)"' \
	-DFZM_LOADER_i386='"$(if $(filter i386,$(ARCHS)),$(abspath $(B)/lib/ld-quickbind-i386.so.1))"' \
	-DFZM_LIBPATH_x86_64='"$(abspath $(FZ)/seed/x86_64)"' -DFZM_LIBPATH_i386='"$(abspath $(FZ)/seed/i386)"'
fz_srcs_main :=
fz_main_main := tests/fuzz/fuzz_main.c

define fz_target
$(FZ)/obj/$(1)/%.o: %.c
	@mkdir -p $$(@D)
	@echo "FUZZCC[$(1)] $$<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(fz_flags_$(1)) -fsanitize=fuzzer-no-link -MMD -MP -c -o $$@ $$<
$(FZ)/bin/fuzz-$(1): $(fz_main_$(1)) $(fz_srcs_$(1):%.c=$(FZ)/obj/$(1)/%.o)
	@mkdir -p $$(@D)
	@echo "FUZZLD $$@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(fz_flags_$(1)) -fsanitize=fuzzer -o $$@ $$^
-include $(fz_srcs_$(1):%.c=$(FZ)/obj/$(1)/%.d)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fz_target,$(t))))

# ------------------------------------------------------------ seed corpora --
# The fuzz suite's library (tests/loader/fuzz: relocations, TLS, IFUNC,
# versions, constructors) and a program needing it, for both classes, with
# GNU and SysV hash tables, each also as linkopt writes it.
FZS := $(FZ)/seed
FZ_LIBSRC := tests/loader/fuzz
fz_cc_x86_64 := $(MUSL_CC_x86_64)
fz_cc_i386 := $(MUSL_CC_i386)
fz_libdir_x86_64 := lib
fz_libdir_i386 := lib32
fz_musl_x86_64 := usr/lib/x86_64-linux-musl
fz_musl_i386 := usr/lib/i386-linux-musl

define fz_seeds
$(FZS)/$(1)/libfz.so: $(FZ_LIBSRC)/libfz.c $(FZ_LIBSRC)/fz.map
	@mkdir -p $$(@D)
	@echo "CC[fuzz seed] $$@"
	$(Q)$(fz_cc_$(1)) -O1 -fPIC -shared -Wl,-soname,libfz.so -Wl,--version-script=$(FZ_LIBSRC)/fz.map -o $$@ $$<
$(FZS)/$(1)/libfz-sysv.so: $(FZ_LIBSRC)/libfz.c $(FZ_LIBSRC)/fz.map
	@mkdir -p $$(@D)
	$(Q)$(fz_cc_$(1)) -O1 -fPIC -shared -Wl,-soname,libfz.so -Wl,--hash-style=sysv \
		-Wl,--version-script=$(FZ_LIBSRC)/fz.map -o $$@ $$<
$(FZS)/$(1)/prog: $(FZ_LIBSRC)/prog.c $(FZS)/$(1)/libfz.so
	$(Q)$(fz_cc_$(1)) -O1 -o $$@ $$< -L$(FZS)/$(1) -lfz
# the main target's other seeds: a program needing only libc, as a PIE
# and at fixed addresses
$(FZS)/$(1)/hello: tests/fuzz/seed/hello.c
	@mkdir -p $$(@D)
	$(Q)$(fz_cc_$(1)) -O1 -o $$@ $$<
$(FZS)/$(1)/hello-fixed: tests/fuzz/seed/hello.c
	@mkdir -p $$(@D)
	$(Q)$(fz_cc_$(1)) -O1 -no-pie -o $$@ $$<
$(FZ)/sysroot/$(fz_libdir_$(1))/libfz.so: $(FZS)/$(1)/libfz.so
	@mkdir -p $$(@D)
	$(Q)cp $$< $$@
$(FZ)/sysroot/$(fz_musl_$(1))/libc.so: tests/fuzz/seed/libc_stub.c
	@mkdir -p $$(@D)
	$(Q)$(fz_cc_$(1)) -O1 -fPIC -shared -nostdlib -Wl,-soname,libc.so -o $$@ $$<
$(FZS)/$(1)/%-opt: $(FZS)/$(1)/% $(B)/bin/linkopt $(FZ)/sysroot/$(fz_libdir_$(1))/libfz.so
	@echo "LINKOPT[fuzz seed] $$@"
	$(Q)$(B)/bin/linkopt -L$(FZ)/sysroot/$(fz_libdir_$(1)) -o $$@ $$<
FZ_SEEDS_$(1) := $(foreach f,libfz.so libfz-sysv.so prog,$(FZS)/$(1)/$(f) $(FZS)/$(1)/$(f)-opt)
FZ_SYSROOT += $(FZ)/sysroot/$(fz_libdir_$(1))/libfz.so $(FZ)/sysroot/$(fz_musl_$(1))/libc.so
endef
$(foreach a,x86_64 i386,$(eval $(call fz_seeds,$(a))))

fz_seeds_linkopt := $(FZ_SEEDS_x86_64) $(FZ_SEEDS_i386)
fz_seeds_loader-x86_64 := $(FZ_SEEDS_x86_64)
fz_seeds_loader-i386 := $(FZ_SEEDS_i386)
fz_seeds_main := $(foreach a,x86_64 i386,$(foreach f,prog prog-opt hello hello-fixed,$(FZS)/$(a)/$(f)))

# ------------------------------------------------------------- make fuzz --
.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_TARGETS:%=$(FZ)/bin/fuzz-%) $(FZ_SEEDS_x86_64) $(FZ_SEEDS_i386) $(FZ_SYSROOT) \
	$(fz_seeds_main) $(ALL_TARGETS)

# One target at a time, niced: the machine's other work goes first.
# FUZZ_DIR holds the corpora (corpus/TARGET), the inputs that crashed a
# target (crashes/TARGET; a slow-unit there, an input that took over 10 s
# on a busy machine, is not a failure), each target's log of its last run and runs.txt,
# one line per run with libFuzzer's own count of executions; a long
# campaign keeps it outside the tree (FUZZ_DIR=/var/cache/quickbind/fuzz).
# FUZZ_RUN picks targets. Seeds are named one by one (-seed_inputs); so is
# the i386 target's corpus, by paths relative to FUZZ_DIR to keep the list
# short: under qemu-user it cannot list a directory whose entries have
# 64-bit offsets. The loader target
# frees all it keeps, so on x86_64 it looks for leaks too; linkopt is a
# short-lived tool, where leaks are not what its target looks for.
FUZZ_DIR ?= $(FZ)
FUZZ_RUN ?= $(FUZZ_TARGETS)
fuzz: fuzz-build
	@fail=0; d=$(abspath $(FUZZ_DIR)); for t in $(FUZZ_RUN); do \
		c=$$d/corpus/$$t; a=$$d/crashes/$$t; mkdir -p $$c $$a; \
		case $$t in linkopt) s="$(abspath $(fz_seeds_linkopt))";; \
			loader-x86_64) s="$(abspath $(fz_seeds_loader-x86_64))";; \
			loader-i386) s="$(abspath $(fz_seeds_loader-i386))";; \
			main) s="$(abspath $(fz_seeds_main))";; \
			*) echo "fuzz: no target $$t (targets: $(FUZZ_TARGETS))"; exit 1;; esac; \
		case $$t in loader-i386) s="$$s $$(cd $$d && find corpus/$$t -type f)";; esac; \
		case $$t in loader-x86_64) l=1;; *) l=0;; esac; \
		echo "== fuzz $$t: $(FUZZ_SECONDS) s, corpus $$c"; \
		(cd $$d && ASAN_OPTIONS=detect_leaks=$$l nice -n 19 $(abspath $(FZ))/bin/fuzz-$$t \
			-max_total_time=$(FUZZ_SECONDS) -detect_leaks=$$l -max_len=65536 -timeout=20 \
			-print_final_stats=1 -artifact_prefix=$$a/ -seed_inputs=$$(echo $$s | tr ' ' ,) $$c \
			> $$d/$$t.log 2>&1) || fail=1; \
		n=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$d/$$t.log | tail -1); \
		echo "$$(date -u +%FT%TZ) $$t $(FUZZ_SECONDS) s: $${n:-?} executions" | tee -a $$d/runs.txt; \
	done; \
	if find $$d/crashes -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
		-o -name 'oom-*' \) | grep -q .; then \
		echo "fuzz: inputs that crashed a target (logs: $$d/*.log):"; ls -l $$d/crashes/*/*; exit 1; \
	fi; \
	[ $$fail = 0 ] && echo "fuzz: no crash" || { echo "fuzz: a target failed (see $$d/*.log)"; exit 1; }

# ------------------------------------------- linkopt under ASan+UBSan --
# The same sources and tests as build/bin/linkopt, compiled with gcc's
# sanitizers; `make check` runs linkopt's suites against it too.
ASAN := $(B)/asan
ASAN_CFLAGS := $(HOST_CFLAGS) -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
ASAN_LO_OBJS := $(LINKOPT_SRCS:%.c=$(ASAN)/%.o) $(ASAN)/tests/fuzz/asan_options.o
ASAN_LO_LIBOBJS := $(filter-out %/main.o,$(ASAN_LO_OBJS))

$(ASAN)/%.o: %.c
	@mkdir -p $(@D)
	@echo "CC[asan] $<"
	$(Q)$(HOSTCC) $(ASAN_CFLAGS) -Itools/linkopt -Itests -c -o $@ $<
$(ASAN)/bin/linkopt: $(ASAN_LO_OBJS)
	@mkdir -p $(@D)
	@echo "LINK $@"
	$(Q)$(HOSTCC) -fsanitize=address,undefined -o $@ $^
$(ASAN)/tests/linkopt_unit: tests/linkopt_unit.c $(ASAN_LO_LIBOBJS)
	@mkdir -p $(@D)
	@echo "CC[asan] $@"
	$(Q)$(HOSTCC) $(ASAN_CFLAGS) -Itools/linkopt -o $@ $^ -lcriterion
$(ASAN)/tests/linkopt_integ: tests/linkopt_integ.c tests/linkopt_fixture.c $(ASAN_LO_LIBOBJS) $(B)/tests/libqbtest.a
	@mkdir -p $(@D)
	@echo "CC[asan] $@"
	$(Q)$(HOSTCC) $(ASAN_CFLAGS) -Itools/linkopt -Itests -DLOT_DIR='"$(LOT)"' \
		-DLINKOPT_BIN='"$(ASAN)/bin/linkopt"' -DLINKOPT_WRAP_DIR='"$(B)/lib/linkopt"' \
		-o $@ $^ -lcriterion
-include $(ASAN_LO_OBJS:.o=.d)
CHECK_DEPS += $(ASAN)/bin/linkopt
CHECK_BINS += $(ASAN)/tests/linkopt_unit $(ASAN)/tests/linkopt_integ

# ---------------------------------------------------- regression corpus --
# tests/fuzz/regress/: see tests/fuzz/test_fuzz_regress.c. Per
# architecture: a program needing libfzr.so and one that dlopens its
# argument, each with PT_INTERP = quickbind (.qb) and musl's (.musl, run by
# direct invocation).
FZR := $(FZ)/regress
FZR_SRC := tests/fuzz
FZR_MK := tests/fuzz.mk
FZR_CHECK := check-fuzz-regress
FZR_ARCHS := $(ARCHS)
FZR_TESTS_ALL := tests/fuzz/test_fuzz_regress
fzr_loader = $(if $(filter $(1),$(ARCHS)),$(call suite_loader,FZR,$(1)))
FZR_testflags = -DFZR_CORPUS='"$(abspath tests/fuzz/regress)"' \
	-DFZR_FIXTURES='"$(abspath $(FZR))"' -DFZR_LINKOPT='"$(abspath $(B)/bin/linkopt)"' \
	-DFZR_LINKOPT_ASAN='"$(abspath $(ASAN)/bin/linkopt)"' \
	-DFZR_LOADER_x86_64='"$(call fzr_loader,x86_64)"' -DFZR_LOADER_i386='"$(call fzr_loader,i386)"'
define fzr_fixtures
$(call suite_lib,FZR,$(1),link/libfzr.so,regress_lib.c)
$(call suite_exe,FZR,$(1),need,regress_need.c,link/libfzr.so,-Wl$(comma)--no-as-needed -L$(FZR)/$(1)/link -lfzr)
$(call suite_exe,FZR,$(1),dlopen,regress_dlopen.c)
endef
$(foreach a,$(FZR_ARCHS),$(eval FZR_DIR_$(a) := $(FZR)/$(a)))
$(foreach a,$(FZR_ARCHS),$(eval $(call fzr_fixtures,$(a))))
$(eval $(call suite,FZR))
# the regression corpus runs linkopt, plain and under ASan
$(FZR_CHECK): all $(ASAN)/bin/linkopt

# The targets on the corpus and the seeds, and the fixed finds' refusals:
# see tests/fuzz/test_fuzz_targets.c.
$(B)/tests/test_fuzz_targets: tests/fuzz/test_fuzz_targets.c $(B)/tests/libqbtest.a tests/fuzz.mk
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DFZT_BIN='"$(abspath $(FZ)/bin)"' \
		-DFZT_CORPUS='"$(abspath tests/fuzz/regress)"' -DFZT_SEEDS='"$(abspath $(FZS))"' \
		-DFZT_LINKOPT='"$(abspath $(B)/bin/linkopt)"' -DFZT_LINKOPT_ASAN='"$(abspath $(ASAN)/bin/linkopt)"' \
		-DFZT_LOADER_x86_64='"$(call fzr_loader,x86_64)"' -DFZT_LOADER_i386='"$(call fzr_loader,i386)"' \
		-o $@ $< $(B)/tests/libqbtest.a -lcriterion
CHECK_DEPS += fuzz-build
CHECK_BINS += $(B)/tests/test_fuzz_targets
