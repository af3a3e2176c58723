/* libqrunload.so: its constructor counts in its own data, so a fresh
 * mapping after an unload counts from 1 again. */
#include "say.h"

static int count;

__attribute__((constructor)) static void unload_ctor(void) { say("unload ctor %d\n", ++count); }
__attribute__((destructor)) static void unload_dtor(void) { say("unload dtor\n"); }

int unload_fn(void) { return 5; }
