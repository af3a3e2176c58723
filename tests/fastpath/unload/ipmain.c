/* interposer-unload (../shared/repro/interposer-unload): an interposer
 * that leaves the global scope, by dlclose or by the undo of a failed
 * dlopen, must leave the interposer list too; a failed dlopen undoes
 * every promotion to the global scope and leaves the debugger's list
 * consistent. */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

extern ElfW(Dyn) _DYNAMIC[];

static int r_state(void)
{
	for (ElfW(Dyn) *d = _DYNAMIC; d->d_tag; d++)
		if (d->d_tag == DT_DEBUG && d->d_un.d_ptr)
			return ((struct r_debug *)d->d_un.d_ptr)->r_state;
	return -1;
}

static void call_user(void)
{
	void *u = dlopen("libuser.so", RTLD_NOW);
	if (!u) {
		printf("dlopen libuser.so: %s\n", dlerror());
		return;
	}
	int (*f)(void) = (int (*)(void))dlsym(u, "user");
	printf("user()=%d\n", f());
}

static const char *loaded(const char *name)
{
	return dlopen(name, RTLD_NOW | RTLD_NOLOAD) ? "yes" : "no";
}

static void failing_open(const char *name)
{
	void *h = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
	printf("%s: %s\n", name, h ? "opened" : "failed");
	printf("after the failure: r_state %d, %s loaded %s\n", r_state(), name, loaded(name));
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "close")) {
		void *h = dlopen("libip.so", RTLD_NOW | RTLD_GLOBAL);
		printf("libip.so: %s\n", h ? "opened" : dlerror());
		dlclose(h);
		call_user();
		printf("libip.so still loaded: %s\n", loaded("libip.so"));
	} else if (!strcmp(mode, "rollback")) {
		failing_open("libipbad.so");
		call_user();
	} else if (!strcmp(mode, "promote")) {
		void *h = dlopen("libip.so", RTLD_NOW | RTLD_LOCAL);
		printf("libip.so: %s, ip_marker global: %s\n", h ? "opened" : dlerror(),
		       dlsym(RTLD_DEFAULT, "ip_marker") ? "yes" : "no");
		failing_open("libneedsip.so");
		printf("ip_marker global: %s\n", dlsym(RTLD_DEFAULT, "ip_marker") ? "yes" : "no");
		call_user();
	} else if (!strcmp(mode, "reopen_global")) {
		void *h = dlopen("libip.so", RTLD_NOW | RTLD_LOCAL);
		void *g = dlopen("libip.so", RTLD_NOW | RTLD_GLOBAL);
		printf("libip.so: %s, then global: %s\n", h ? "opened" : "failed", g ? "opened" : "failed");
		call_user();
	} else {
		printf("unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
