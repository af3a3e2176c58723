/* argv[1]: "local" or "global", the mode libdla.so is opened with. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int global = argc > 1 && !strcmp(argv[1], "global");
	void *a = dlopen("libdla.so", RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
	if (!a) {
		printf("libdla: failed\n");
		return 1;
	}
	int (*fa)(int) = (int (*)(int))dlsym(a, "dla_fn");
	printf("dla_fn(3)=%d\n", fa ? fa(3) : -1);
	printf("dla_fn in default scope: %s\n", dlsym(RTLD_DEFAULT, "dla_fn") ? "yes" : "no");
	void *c = dlopen("libdlc.so", RTLD_NOW);
	if (!c) {
		printf("libdlc: not loaded\n");
	} else {
		int (*fc)(int) = (int (*)(int))dlsym(c, "dlc_fn");
		printf("dlc_fn(4)=%d\n", fc ? fc(4) : -1);
	}
	return 0;
}
