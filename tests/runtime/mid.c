/* libqrmid.so: needs libqrdep.so. */
#include "say.h"

int dep_value(void);

__attribute__((constructor)) static void mid_ctor(void) { say("ctor mid\n"); }
__attribute__((destructor)) static void mid_dtor(void) { say("dtor mid\n"); }

int mid_value(void) { return dep_value() + 10; }
