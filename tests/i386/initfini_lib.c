/* One source, built as libleaf, libmid (needs leaf) and libtop (needs
 * mid): NAME, FN and DEP come from the build. */
#include <stdio.h>

__attribute__((constructor)) static void ctor(void) { printf("ctor %s\n", NAME); }
__attribute__((destructor)) static void dtor(void) { printf("dtor %s\n", NAME); }

#ifdef DEP
const char *DEP(void);
const char *FN(void) { return DEP() ? NAME : 0; }
#else
const char *FN(void) { return NAME; }
#endif
