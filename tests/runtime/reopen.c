/* The reopen cache's driver: `reopen fresh N` loads ./libqrfresh.so N
 * times, each load printing what it starts with (libqrfresh.so spoils it
 * after); `reopen loop N` loads and unloads it N times and prints whether
 * the process holds more mappings of it than after the first cycle;
 * `reopen global` loads libqrfreshglob.so RTLD_GLOBAL between loads of
 * libqrfresh.so, whose dep_value and dep_array it then defines first. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "say.h"

static void fail(const char *what)
{
	say("failed: %s: %s\n", what, dlerror());
	exit(1);
}

static void cycle(int report)
{
	void *h = dlopen("./libqrfresh.so", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fail("dlopen");
	void (*fn)(void);
	*(void **)&fn = dlsym(h, "fresh_report");
	if (!fn)
		fail("fresh_report");
	if (report)
		fn();
	if (dlclose(h))
		fail("dlclose");
}

/* Lines of /proc/self/maps naming name. */
static int mappings(const char *name)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		fail("/proc/self/maps");
	while (fgets(line, sizeof line, f))
		n += strstr(line, name) != 0;
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	int n = argc > 2 ? atoi(argv[2]) : 3;
	if (!strcmp(c, "fresh")) {
		for (int i = 0; i < n; i++)
			cycle(1);
	} else if (!strcmp(c, "loop")) {
		cycle(0);
		int first = mappings("libqrfresh.so") + mappings("libqrdep.so");
		for (int i = 1; i < n; i++)
			cycle(0);
		int last = mappings("libqrfresh.so") + mappings("libqrdep.so");
		say("%s\n", last <= first ? "no more mappings than after one cycle" : "mappings grew");
	} else if (!strcmp(c, "global")) {
		cycle(1);
		cycle(1);
		void *g = dlopen("./libqrfreshglob.so", RTLD_NOW | RTLD_GLOBAL);
		if (!g)
			fail("libqrfreshglob.so");
		cycle(1);
		cycle(1);
	}
	return 0;
}
