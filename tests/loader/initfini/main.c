#include <stdlib.h>
#include "say.h"
void top_touch(void);
void mid_touch(void);

/* No DT_PREINIT_ARRAY here: musl's loader ignores it (see preinit/). */
static void exe_atexit1(void) { say("exe: atexit 1"); }
static void exe_atexit2(void) { say("exe: atexit 2"); }
static void exe_atexit_ctor(void) { say("exe: atexit (registered in ctor)"); }

__attribute__((constructor)) static void exe_ctor(void)
{
	say("exe: ctor");
	atexit(exe_atexit_ctor);
}
__attribute__((destructor)) static void exe_dtor(void) { say("exe: dtor"); }

int main(void)
{
	say("exe: main");
	atexit(exe_atexit1);
	top_touch();
	mid_touch();
	atexit(exe_atexit2);
	say("exe: main returns");
	return 0;
}
