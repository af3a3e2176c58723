/* What the fast-path suites add to tests/lib/: run a fixture by direct
 * invocation under musl's loader (the reference: the plain build) and
 * under quickbind (the linkopt-optimized copy) and compare, with the
 * loader's LD_DEBUG=statistics counters; read what linkopt recorded.
 * The suites and this file are compiled once per architecture; the build
 * defines FP_ARCH_I386 for i386, FP_LINKOPT, and compiles tests/lib's
 * compare.c with that architecture's loader, fixture root and musl loader
 * (lt_loader(), lt_fixture_path(), lt_musl_ldso()). */
#ifndef QB_FPCOMMON_H
#define QB_FPCOMMON_H

#include "lib/compare.h"
#include "lib/run.h"
#include "lib/shell.h"
#include "lib/text.h"

/* What differs between the architectures, as the tools print it. Suite
 * names carry the architecture so that both runs can be told apart. */
#ifdef FP_ARCH_I386
#define FP_SUITE(s) i386_##s
#define FP_ELF_CLASS "ELF32"
#define FP_ELF_MACHINE "Intel 80386"
#define FP_DUMP_CLASS "ELFCLASS32 i386"
#define FP_LOADER_NAME "ld-quickbind-i386.so.1"
#define FP_R_COPY "R_386_COPY"
#define FP_R_TLS_MODULE "R_386_TLS_DTPMOD32"
#define FP_R_TLSDESC "R_386_TLS_DESC"
#else
#define FP_SUITE(s) s
#define FP_ELF_CLASS "ELF64"
#define FP_ELF_MACHINE "Advanced Micro Devices X86-64"
#define FP_DUMP_CLASS "ELFCLASS64 x86_64"
#define FP_LOADER_NAME "ld-quickbind-x86_64.so.1"
#define FP_R_COPY "R_X86_64_COPY"
#define FP_R_TLS_MODULE "R_X86_64_DTPMOD64"
#define FP_R_TLSDESC "R_X86_64_TLSDESC"
#endif

/* gdb and valgrind trace i386 processes only when the kernel runs them
 * natively. */
#ifdef FP_ARCH_I386
#define FP_NEEDS_TRACEABLE_PROCESS() SKIP_IF_I386_EMULATED(1, "gdb and valgrind cannot trace it")
#else
#define FP_NEEDS_TRACEABLE_PROCESS() ((void)0)
#endif

#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* One run of a fixture. dir is relative to the fixture root and is the
 * working directory; prog and the entries of libpath (':'-separated,
 * relative to dir) name files in it. env: extra NAME=value entries. */
struct fp_run {
	const char *dir;
	const char *prog;
	const char *libpath;
	const char *const *env;
	const char *const *args;
	/* 1: quickbind may bind from the program's launch record; 0: the
	 * suites test what binds without it (LD_NORECORD=1) */
	int record;
};

const char *fp_linkopt(void);

/* Runs prog by direct invocation of loader (musl's or quickbind) with a
 * fixed minimal environment plus run->env. */
void fp_exec(struct run_result *r, const char *loader, const struct fp_run *run);

/* Reference: musl's loader on ref; quickbind on qb with LD_DEBUG=statistics
 * added. Asserts both end by exit with the same status (0 for the
 * reference) and the same stdout; qb's result is left in *out (free it). */
void fp_expect_same(const struct fp_run *ref, const struct fp_run *qb, struct run_result *out);

/* Value of counter key ("direct_hits") on the statistics lines of stderr
 * printed at `when` ("start-up", "dlopen"; the last such line counts).
 * Fails the test when the counter is absent. */
long fp_stat(const char *err, const char *when, const char *key);

/* si_flags linkopt recorded for reference name of the optimized file
 * (relative to the fixture root), read from `linkopt --dump`, which must
 * report the file as one of this architecture. */
unsigned dump_flags(const char *file, const char *name);

/* Asserts that file (relative to the fixture root) is an ELF file of this
 * architecture: a fixture built for the wrong one would test the other
 * architecture again. */
void fp_expect_arch(const char *file);

#endif
