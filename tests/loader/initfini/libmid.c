#include "say.h"
void leaf_touch(void);
__attribute__((constructor)) static void mid_ctor(void) { say("mid: ctor"); leaf_touch(); }
__attribute__((destructor)) static void mid_dtor(void) { say("mid: dtor"); }
void mid_touch(void) { say("mid: called"); }
