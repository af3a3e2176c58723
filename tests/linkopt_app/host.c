/* A host program that loads a module with dlopen and calls its entry. */
#include <dlfcn.h>
#include <stdio.h>
int host_api_calls(void);
int main(int argc, char **argv)
{
	void *h = dlopen(argc > 1 ? argv[1] : "./mod.so", RTLD_NOW);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	int (*entry)(int) = (int (*)(int))dlsym(h, "mod_entry");
	if (!entry)
		return 2;
	printf("entry %d calls %d\n", entry(20), host_api_calls());
	return 0;
}
