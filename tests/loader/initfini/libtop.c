/* Needs mid and leaf: a diamond with the executable, which needs top and mid. */
#include <stdlib.h>
#include "say.h"
void mid_touch(void);
void leaf_touch(void);
static void top_atexit(void) { say("top: atexit (registered in ctor)"); }
__attribute__((constructor)) static void top_ctor(void)
{
	say("top: ctor");
	mid_touch();
	atexit(top_atexit);
}
__attribute__((destructor)) static void top_dtor(void) { say("top: dtor"); }
void top_touch(void) { leaf_touch(); say("top: called"); }
