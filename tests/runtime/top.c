/* libqrtop.so: needs libqrmid.so and libqrdep.so. */
#include "say.h"

int mid_value(void);
int dep_value(void);

__attribute__((constructor)) static void top_ctor(void) { say("ctor top\n"); }
__attribute__((destructor)) static void top_dtor(void) { say("dtor top\n"); }

int top_value(void) { return mid_value() + dep_value() + 100; }
