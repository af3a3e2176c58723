/* libcaller.so: dlopens a library only its own RUNPATH names. */
#include <dlfcn.h>
const char *lib_top(void)
{
	return dlopen("libonly.so", RTLD_NOW) ? "libonly.so: loaded" : "libonly.so: not found";
}
