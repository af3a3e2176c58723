# quickbind: one non-recursive make for the loader, linkopt, tests and bench.
# Fragments (*.mk) next to the code they build add to the variables below.

# On a fresh clone the first make installs the dependencies (Debian
# packages, scripts/deps.sh) and configures; both are quick when done.
ifeq ($(wildcard config.mak),)
$(shell ./scripts/deps.sh >&2; ./configure >&2)
ifeq ($(wildcard config.mak),)
ifeq ($(filter deps clean,$(MAKECMDGOALS)),)
$(error configure failed: see the message above)
endif
endif
endif
-include config.mak

B ?= build
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

HOSTCC ?= gcc
WARN := -std=gnu11 -Wall -Wextra -Werror
HOST_CFLAGS := $(WARN) -O2 -g -Icommon -MMD -MP

ALL_TARGETS :=
CHECK_BINS :=
CHECK_DEPS :=

# ---------------------------------------------------------------- loader --
# The loader is quickbind's own objects linked with every PIC object of
# musl's libc.a, so that it is at once the dynamic linker and libc.so.
# QB_EXT=none builds the core alone (ldso/ext/ext.h), into its own tree.
QB_EXT ?= all
ifeq ($(QB_EXT),none)
B := build/noext
LDSO_EXT_SRCS := ldso/ext/none.c
LDSO_EXT_ASM :=
# tests of an extension (unloading) are skipped, and say so
HOST_CFLAGS += -DQB_TEST_NOEXT
else
LDSO_EXT_SRCS := $(filter-out ldso/ext/none.c,$(wildcard ldso/ext/*.c))
LDSO_EXT_ASM := hintloop
endif
LDSO_SRCS := $(sort $(wildcard ldso/*.c $(filter-out common/elfbuf.c,$(wildcard common/*.c)))) \
	$(LDSO_EXT_SRCS)
LDSO_CFLAGS := $(WARN) -O2 -g -fPIC -fvisibility=hidden -fno-stack-protector \
	-fno-plt -ffunction-sections -fdata-sections -Ildso -Ildso/ext -Icommon -MMD -MP

LIBC_REPLACED := dlclose.lo dlinfo.lo
musl_cc_x86_64 := gcc -specs $(MUSL_LIBDIR_x86_64)/musl-gcc.specs
musl_cc_i386 := i686-linux-gnu-gcc -specs $(MUSL_LIBDIR_i386)/musl-gcc.specs
nasm_fmt_x86_64 := elf64
nasm_fmt_i386 := elf32

define loader_rules
LDSO_OBJS_$(1) := $$(LDSO_SRCS:%.c=$(B)/$(1)/%.o) \
	$$(patsubst %.c,$(B)/$(1)/%.o,$$(wildcard arch/$(1)/*.c)) \
	$$(patsubst %.asm,$(B)/$(1)/%.o,$$(filter-out $$(foreach x,hintloop,$$(if $$(filter $$x,$(LDSO_EXT_ASM)),,arch/$(1)/$$x.asm)),$$(wildcard arch/$(1)/*.asm)))

$(B)/$(1)/%.o: %.c config.mak
	@mkdir -p $$(@D)
	@echo "CC[$(1)] $$<"
	$(Q)$$(musl_cc_$(1)) $$(LDSO_CFLAGS) -Iarch/$(1) -c -o $$@ $$<

$(B)/$(1)/%.o: %.asm $(B)/$(1)/consts.inc
	@mkdir -p $$(@D)
	@echo "NASM[$(1)] $$<"
	$(Q)$(NASM) -f $(nasm_fmt_$(1)) -Iarch/$(1)/ -I$(B)/$(1)/ -o $$@ $$<

# The constants nasm shares with C, generated from the one header.
$(B)/$(1)/consts.inc: arch/$(1)/consts.h
	@mkdir -p $$(@D)
	@echo "GEN $$@"
	$(Q)sed -n 's/^#define \([A-Z_0-9]*\) \([0-9x]*\)$$$$/%define \1 \2/p' $$< > $$@

# musl's libc.a minus the members the loader replaces (dlclose, dlinfo),
# with the exit- and fork-handler registrations renamed so the loader can
# wrap them.
$(B)/$(1)/libc-qb.a: $(MUSL_LIBDIR_$(1))/libc.a Makefile
	@mkdir -p $$(@D)
	@echo "AR $$@"
	$(Q)rm -rf $$@.d && mkdir -p $$@.d && cp $$< $$@.tmp && \
		ar d $$@.tmp $(LIBC_REPLACED) && \
		(cd $$@.d && ar x ../libc-qb.a.tmp atexit.lo pthread_atfork.lo) && \
		objcopy --redefine-sym __cxa_atexit=__qb_musl_cxa_atexit \
			--redefine-sym atexit=__qb_musl_atexit $$@.d/atexit.lo && \
		objcopy --redefine-sym pthread_atfork=__qb_musl_pthread_atfork \
			$$@.d/pthread_atfork.lo && \
		ar r $$@.tmp $$@.d/atexit.lo $$@.d/pthread_atfork.lo && mv $$@.tmp $$@ && rm -rf $$@.d

$(B)/lib/ld-quickbind-$(1).so.1: $$(LDSO_OBJS_$(1)) ldso/dynamic.list $(B)/$(1)/libc-qb.a
	@mkdir -p $$(@D)
	@echo "LD $$@"
	$(Q)$$(musl_cc_$(1)) -nostdlib -shared -Wl,-e,_dlstart \
		-Wl,-Bsymbolic-functions -Wl,--dynamic-list=ldso/dynamic.list \
		-Wl,--no-undefined -Wl,-z,now -Wl,--hash-style=both \
		-Wl,-z,noexecstack -Wl,--eh-frame-hdr -o $$@ $$(LDSO_OBJS_$(1)) \
		-Wl,--whole-archive $(B)/$(1)/libc-qb.a -Wl,--no-whole-archive -lgcc

ALL_TARGETS += $(B)/lib/ld-quickbind-$(1).so.1
-include $$(LDSO_OBJS_$(1):.o=.d)
endef
$(foreach a,$(ARCHS),$(eval $(call loader_rules,$(a))))

LOADER := $(B)/lib/ld-quickbind-x86_64.so.1

# -------------------------------------------------------------- fragments --
include $(wildcard common/*.mk tools/linkopt/*.mk tests/*.mk bench/*.mk)

# ---------------------------------------------------------------- targets --
.PHONY: all check install clean deps
.DEFAULT_GOAL := all
all: $(ALL_TARGETS)

deps:
	@./scripts/deps.sh

# Every Criterion binary runs even when an earlier one fails, so one report
# shows everything that is broken.
# $(call run_suites,NAME,BINARIES)
define run_suites
	@fail=0; for t in $(2); do \
		echo "== $$t"; $$t --jobs=2 || fail=1; \
	done; \
	if [ $$fail = 0 ]; then echo "$(1): all test suites passed"; \
	else echo "$(1): FAILURES (see above)"; exit 1; fi
endef

check: all $(CHECK_DEPS) $(CHECK_BINS) | deps
	$(call run_suites,check,$(CHECK_BINS))

# The suites that compare with musl's loader (relocation matrix, loader,
# dl* API, TLS) and the unit tests: what the core alone must pass
# (make QB_EXT=none check-core).
CORE_CHECK_BINS = $(filter %/unit %test_matrix_x86_64 %test_matrix_i386 %test_loader_run \
	%test_loader_errors %test_loader_ext %test_loader_fuzz %test_i386_loader_run \
	%test_i386_loader_errors %test_i386_loader_ext %test_i386_loader_fuzz %test_runtime_dl \
	%test_runtime_threads %test_runtime_tools %test_runtime_secure \
	%test_tlsinit_x86_64 %test_tlsinit_i386 %test_observe %test_observe_tools,$(CHECK_BINS))

.PHONY: check-core
check-core: all $(CHECK_DEPS) $(CORE_CHECK_BINS) | deps
	$(call run_suites,check-core,$(CORE_CHECK_BINS))

DESTDIR ?=
install: all
	@for a in $(ARCHS); do \
		install -D -m 755 $(B)/lib/ld-quickbind-$$a.so.1 $(DESTDIR)/lib/ld-quickbind-$$a.so.1; \
		if [ ! -e $(DESTDIR)/etc/ld-quickbind-$$a.path ]; then \
			install -d $(DESTDIR)/etc; \
			printf '/lib/%s-linux-musl\n/usr/lib/%s-linux-musl\n$(PREFIX)/lib\n' $$a $$a \
				> $(DESTDIR)/etc/ld-quickbind-$$a.path; \
		fi; \
	done
	@if [ -x $(B)/bin/linkopt ]; then install -D -m 755 $(B)/bin/linkopt $(DESTDIR)$(PREFIX)/bin/linkopt; fi

clean:
	rm -rf $(B)
