/* Helpers of the i386 fast-path suites, on top of tests/fastpath/fpcommon.h
 * (which the build points at the i386 loader and fixtures). */
#ifndef QB_I3FHELP_H
#define QB_I3FHELP_H

#include "fpcommon.h"

#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Non-zero when a line of s contains both a and b. */
int has_line(const char *s, const char *a, const char *b);

/* si_flags linkopt recorded for reference name of the optimized file
 * (relative to the fixture root), read from `linkopt --dump`. */
unsigned dump_flags(const char *file, const char *name);

/* Asserts that file (relative to the fixture root) is a 32-bit i386 ELF:
 * a fixture built for the wrong class would test x86_64 again. */
void expect_elf32_i386(const char *file);

#endif
