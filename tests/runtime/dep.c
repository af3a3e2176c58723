/* libqrdep.so: the leaf of the dependency chain top -> mid -> dep. */
#include "say.h"

int dep_array[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__attribute__((constructor)) static void dep_ctor(void) { say("ctor dep\n"); }
__attribute__((destructor)) static void dep_dtor(void) { say("dtor dep\n"); }

int dep_value(void) { return 1; }

/* Local code after an exported function: dladdr must not name it after
 * the preceding exported symbol, whose size does not cover it. */
__attribute__((noinline)) static int dep_private(int x) { return x * 3 + dep_array[x & 7]; }
void *dep_private_addr(void) { return (void *)dep_private; }
