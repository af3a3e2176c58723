/* libw3 loaded by dlopen (its scope definer, libw1, comes with it), then
 * unloaded; a strong definition of the vague names made global; libw3
 * loaded again. The second load must find that definition first: what
 * the first load's walks to libw1 answered does not outlive them. */
#include <dlfcn.h>
#include <stdio.h>

static int report(const char *when)
{
	void *h = dlopen("libw3.so", RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		printf("%s: %s\n", when, dlerror());
		return 1;
	}
	void (*w3_report)(void) = (void (*)(void))dlsym(h, "w3_report");
	if (!w3_report) {
		printf("%s: %s\n", when, dlerror());
		return 1;
	}
	printf("%s: ", when);
	fflush(stdout);
	w3_report();
	fflush(stdout);
	dlclose(h);
	return 0;
}

int main(void)
{
	if (report("first"))
		return 1;
	if (!dlopen("libwpre.so", RTLD_NOW | RTLD_GLOBAL)) {
		printf("libwpre: %s\n", dlerror());
		return 1;
	}
	return report("second");
}
