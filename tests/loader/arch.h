/* What differs between the architectures for the loader suites, which are
 * compiled once per architecture from the same sources (tests/loader.mk
 * defines LT_ARCH_I386 for i386). Suite names carry the architecture so
 * that both runs can be told apart. */
#ifndef QB_TESTS_LOADER_ARCH_H
#define QB_TESTS_LOADER_ARCH_H

#include "lib/run.h"

#ifdef LT_ARCH_I386
#define LT_SUITE(s) i386_##s
#define LT_R_COPY "R_386_COPY"
/* i386 PIEs reach a library's data through the GOT: only a fixed-address
 * executable gets copy relocations. */
#define LT_R_PIE_DATA "R_386_GLOB_DAT"
#define LT_R_RELATIVE "R_386_RELATIVE"
/* the type errors/elfcorrupt's reltype mode writes: R_386_SIZE32 */
#define LT_BAD_RELTYPE "unsupported relocation type 38"
#else
#define LT_SUITE(s) s
#define LT_R_COPY "R_X86_64_COPY"
#define LT_R_PIE_DATA "R_X86_64_COPY"
#define LT_R_RELATIVE "R_X86_64_RELATIVE"
/* R_X86_64_SIZE64 */
#define LT_BAD_RELTYPE "unsupported relocation type 33"
#endif

/* gdb and valgrind trace i386 processes only when the kernel runs them
 * natively. */
#ifdef LT_ARCH_I386
#define LT_NEEDS_TRACEABLE_PROCESS() SKIP_IF_I386_EMULATED(1, "gdb and valgrind cannot trace it")
#else
#define LT_NEEDS_TRACEABLE_PROCESS() ((void)0)
#endif

#endif
