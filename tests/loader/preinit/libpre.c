#include "../initfini/say.h"
__attribute__((constructor)) static void lib_ctor(void) { say("lib: ctor"); }
__attribute__((destructor)) static void lib_dtor(void) { say("lib: dtor"); }
void lib_touch(void) { say("lib: called"); }
