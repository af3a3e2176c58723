/* dlopen(argv[1]): a hostile file must be refused with a one-line
 * dlerror, or loaded; either way the process goes on. */
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		printf("refused: %s\n", e ? e : "(no dlerror)");
		return 0;
	}
	puts("loaded");
	dlclose(h);
	return 0;
}
