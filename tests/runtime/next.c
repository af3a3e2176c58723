/* Linked with libqrwrap.so before libqrtarget.so: target() is the
 * wrapper, which reaches the real one through RTLD_NEXT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include "say.h"

int target(int x);

int main(void)
{
	say("target(5) = %d\n", target(5));
	int (*next)(int) = (int (*)(int))dlsym(RTLD_NEXT, "target");
	say("next from the program: %d\n", next ? next(5) : -1);
	int (*dflt)(int) = (int (*)(int))dlsym(RTLD_DEFAULT, "target");
	say("default is the wrapper %d\n", dflt == target);
	return 0;
}
