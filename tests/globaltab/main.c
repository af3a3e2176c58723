/* The global-table fixture's program: which object answers each kind of
 * lookup the global scope gets (relocations of the program and of a
 * library, dlsym, RTLD_NEXT, libraries dlopened after GLOBAL and LOCAL
 * ones, after a dlclose). Lines starting with "x:" are where quickbind
 * knowingly differs from musl's loader (symbol versions); the
 * test checks them against fixed answers. */
#include <dlfcn.h>
#include <stdio.h>

const char *gt_who(void);
const char *gt_weak(void);
const char *gt_strong_first(void);
const char *gt_order(void);
const char *gt_tiny(void);
extern int gt_tiny_data;
const char *vfunc(void);
const char *gt_calls(void);
const char *gt_vold(void);

/* also defined by libgta: the program comes first */
const char *gt_maindef(void) { return "main"; }

static const char *call(void *h, const char *name)
{
	const char *(*f)(void) = (const char *(*)(void))dlsym(h, name);
	return f ? f() : "null";
}

int main(void)
{
	printf("who=%s\n", gt_who());
	printf("weak=%s\n", gt_weak());
	printf("strong_first=%s\n", gt_strong_first());
	printf("order=%s\n", gt_order());
	printf("tiny=%s %d\n", gt_tiny(), gt_tiny_data);
	printf("vfunc=%s\n", vfunc());
	printf("%s\n", gt_calls());
	printf("x: vold=%s\n", gt_vold());
	printf("dlsym who=%s weak=%s order=%s vfunc=%s maindef=%s tiny=%s\n", call(RTLD_DEFAULT, "gt_who"),
		call(RTLD_DEFAULT, "gt_weak"), call(RTLD_DEFAULT, "gt_order"), call(RTLD_DEFAULT, "vfunc"),
		call(RTLD_DEFAULT, "gt_maindef"), call(RTLD_DEFAULT, "gt_tiny"));
	printf("next who=%s maindef=%s\n", call(RTLD_NEXT, "gt_who"), call(RTLD_NEXT, "gt_maindef"));

	void *loc = dlopen("libgtlocal.so", RTLD_NOW | RTLD_LOCAL);
	printf("local: %s; default local_only=%s who=%s; handle local_only=%s\n",
		loc ? "loaded" : dlerror(), call(RTLD_DEFAULT, "gt_local_only"),
		call(RTLD_DEFAULT, "gt_who"), loc ? call(loc, "gt_local_only") : "-");

	void *g = dlopen("libgtglob.so", RTLD_NOW | RTLD_GLOBAL);
	printf("global: %s; default who=%s order=%s late=%s\n", g ? "loaded" : dlerror(),
		call(RTLD_DEFAULT, "gt_who"), call(RTLD_DEFAULT, "gt_order"), call(RTLD_DEFAULT, "gt_late"));
	void *u = dlopen("libgtuser.so", RTLD_NOW);
	printf("user: %s\n", u ? call(u, "gt_user") : dlerror());

	void *g2 = dlopen("libgtglob2.so", RTLD_NOW | RTLD_GLOBAL);
	printf("global2: %s; handle late2=%s\n", g2 ? "loaded" : dlerror(), g2 ? call(g2, "gt_late2") : "-");
	if (g2)
		dlclose(g2);
	printf("after dlclose late2=%s\n", call(RTLD_DEFAULT, "gt_late2"));
	printf("after dlclose who=%s order=%s late=%s\n", call(RTLD_DEFAULT, "gt_who"),
		call(RTLD_DEFAULT, "gt_order"), call(RTLD_DEFAULT, "gt_late"));
	g2 = dlopen("libgtglob2.so", RTLD_NOW | RTLD_GLOBAL);
	printf("reopened: %s; default late2=%s\n", g2 ? "loaded" : dlerror(), call(RTLD_DEFAULT, "gt_late2"));
	return 0;
}
