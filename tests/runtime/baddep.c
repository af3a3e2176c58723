/* libqrbaddep.so: loaded only as a dependency of libraries that fail. */
#include "say.h"

__attribute__((constructor)) static void baddep_ctor(void) { say("ctor baddep\n"); }

int baddep_fn(void) { return 9; }
