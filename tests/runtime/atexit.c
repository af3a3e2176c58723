/* libqratexit.so: registers an exit handler in its own code, which must
 * stay mapped until exit. */
#include <stdlib.h>
#include "say.h"

static void handler(void) { say("atexit handler\n"); }

__attribute__((constructor)) static void atexit_ctor(void) { atexit(handler); }

int atexit_fn(void) { return 6; }
