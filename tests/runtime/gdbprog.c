/* Loads libqrgdb.so at run time and calls into it. */
#include <dlfcn.h>
#include "say.h"

int dep_value(void);

int main(void)
{
	void *h = dlopen("libqrgdb.so", RTLD_NOW);
	int (*f)(int) = h ? (int (*)(int))dlsym(h, "fn_in_lib") : 0;
	say("fn_in_lib(1) = %d, dep_value %d\n", f ? f(1) : -1, dep_value());
	return 0;
}
