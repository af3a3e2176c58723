/* dlopen by name: the search chain starts at the program, whoever calls
 * dlopen. lib_top (libcaller.so) dlopens libonly.so, which only its own
 * RUNPATH names: musl does not find it. */
#include <dlfcn.h>
#include <stdio.h>
const char *lib_top(void);
int main(void)
{
	void *h = dlopen("libdla.so", RTLD_NOW);
	const char *(*f)(void) = h ? (const char *(*)(void))dlsym(h, "dla") : 0;
	printf("libdla.so: %s\n", f ? f() : dlerror());
	printf("%s\n", lib_top());
	return 0;
}
