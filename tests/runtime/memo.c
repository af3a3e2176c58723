/* The binding memo's driver: `memo CASE` loads libqmuser.so again and
 * again from a private copy of the fixtures (a directory of its own under
 * /tmp, so that it may replace files there) and prints what each load
 * binds, one fact a line. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "say.h"

static char dir[64];

static void fail(const char *what)
{
	say("failed: %s: %s\n", what, dlerror());
	exit(1);
}

/* src (a fixture in the working directory) to dir/dst, as a new file
 * renamed into place: a new inode, as an installation does it. */
static void install(const char *src, const char *dst)
{
	char tmp[128], to[128], buf[4096];
	snprintf(tmp, sizeof tmp, "%s/.tmp", dir);
	snprintf(to, sizeof to, "%s/%s", dir, dst);
	int in = open(src, O_RDONLY), out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		fail(src);
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, n) != n)
			fail(tmp);
	close(in);
	close(out);
	if (rename(tmp, to))
		fail(to);
}

static int mapped(const char *name)
{
	char line[512];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		fail("/proc/self/maps");
	while (fgets(line, sizeof line, f))
		found |= strstr(line, name) != 0;
	fclose(f);
	return found;
}

static void *open_in_dir(const char *name, int mode)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	void *h = dlopen(path, mode);
	if (!h)
		fail(name);
	return h;
}

/* One load of dir/name: its report, its unload. */
static void cycle(const char *name)
{
	void *h = open_in_dir(name, RTLD_NOW | RTLD_LOCAL);
	void (*report)(void);
	*(void **)&report = dlsym(h, "user_report");
	if (!report)
		fail("user_report");
	report();
	if (dlclose(h))
		fail("dlclose");
	say("%s mapped %d\n", name, mapped(name));
}

static void cleanup(void)
{
	static const char *const files[] = {"libqmuser.so", "libqmdep.so", "libqmglob.so", ".tmp"};
	char path[128];
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	for (int k = 0; k < 10; k++) {
		snprintf(path, sizeof path, "%s/libqmuser%d.so", dir, k);
		unlink(path);
	}
	rmdir(dir);
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	strcpy(dir, "/tmp/qbmemo.XXXXXX");
	if (!mkdtemp(dir))
		fail("mkdtemp");
	atexit(cleanup);
	install("libqmuser.so", "libqmuser.so");
	install("libqmdep.so", "libqmdep.so");
	if (!strcmp(c, "once")) {
		/* musl's loader too: its dlclose unloads nothing, but the
		 * bindings and the lines are the same */
		void *h = open_in_dir("libqmuser.so", RTLD_NOW);
		void (*report)(void);
		*(void **)&report = dlsym(h, "user_report");
		report();
		dlclose(h);
	} else if (!strcmp(c, "reopen")) {
		for (int i = 0; i < 3; i++)
			cycle("libqmuser.so");
	} else if (!strcmp(c, "replace")) {
		cycle("libqmuser.so");
		cycle("libqmuser.so");
		install("libqmdep2.so", "libqmdep.so");
		cycle("libqmuser.so");
		install("libqmuser2.so", "libqmuser.so");
		cycle("libqmuser.so");
		cycle("libqmuser.so");
	} else if (!strcmp(c, "global")) {
		install("libqmglob.so", "libqmglob.so");
		cycle("libqmuser.so");
		cycle("libqmuser.so");
		void *g = open_in_dir("libqmglob.so", RTLD_NOW | RTLD_GLOBAL);
		cycle("libqmuser.so");
		cycle("libqmuser.so");
		dlclose(g);
		cycle("libqmuser.so");
	} else if (!strcmp(c, "many")) {
		/* ten objects, one after the other: more than the memos kept */
		char name[32];
		for (int k = 0; k < 10; k++) {
			snprintf(name, sizeof name, "libqmuser%d.so", k);
			install("libqmuser.so", name);
			cycle(name);
		}
		say("again\n");
		cycle("libqmuser9.so");
		say("first\n");
		cycle("libqmuser0.so");
	} else {
		say("unknown case %s\n", c);
		return 2;
	}
	return 0;
}
