/* Leaf of the chain: legacy DT_INIT/DT_FINI (-Wl,-init/-fini) next to
 * init/fini arrays, two constructors with an explicit priority order. */
#include <stdlib.h>
#include "say.h"

void leaf_init(void) { say("leaf: DT_INIT"); }
void leaf_fini(void) { say("leaf: DT_FINI"); }
static void leaf_atexit(void) { say("leaf: atexit (registered in ctor)"); }

__attribute__((constructor(101))) static void leaf_ctor_first(void) { say("leaf: ctor 101"); }
__attribute__((constructor)) static void leaf_ctor(void)
{
	say("leaf: ctor");
	atexit(leaf_atexit);
}
__attribute__((destructor(101))) static void leaf_dtor_last(void) { say("leaf: dtor 101"); }
__attribute__((destructor)) static void leaf_dtor(void) { say("leaf: dtor"); }

void leaf_touch(void) { say("leaf: called"); }
