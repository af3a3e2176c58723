/* libqrsibb.so */
#include "say.h"

__attribute__((destructor)) static void sibb_dtor(void) { say("dtor sibb\n"); }

int sib_b_fn(void) { return 6; }
