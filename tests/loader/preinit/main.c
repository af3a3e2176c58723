/* DT_PREINIT_ARRAY of the executable runs before every other initialiser,
 * those of its libraries included. musl's loader never runs it, so the
 * reference is glibc's loader (no atexit here: glibc and musl order atexit
 * handlers and destructors differently). */
#include "../initfini/say.h"
void lib_touch(void);

static void exe_preinit1(void) { say("exe: preinit_array 1"); }
static void exe_preinit2(void) { say("exe: preinit_array 2"); }
__attribute__((used, section(".preinit_array")))
static void (*const preinit[])(void) = {exe_preinit1, exe_preinit2};

__attribute__((constructor)) static void exe_ctor(void) { say("exe: ctor"); }
__attribute__((destructor)) static void exe_dtor(void) { say("exe: dtor"); }

int main(void)
{
	say("exe: main");
	lib_touch();
	return 0;
}
