/* The dl* API driver: `rt CASE` runs one scenario and prints what it
 * observed, one fact a line, so that runs under different loaders can be
 * compared line by line. Libraries are found through LD_LIBRARY_PATH. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "say.h"

#ifndef RTLD_DI_ORIGIN
#define RTLD_DI_ORIGIN 6
#endif
#ifndef RTLD_DI_TLS_MODID
#define RTLD_DI_TLS_MODID 9
#define RTLD_DI_TLS_DATA 10
#endif

typedef int (*intfn)(void);

int rt_exported = 17;

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : 0;
	return s ? s + 1 : p ? p : "(null)";
}

static const char *err_has(const char *needle)
{
	const char *e = dlerror();
	if (!e)
		return "no error";
	return strstr(e, needle) ? "error names it" : e;
}

static int call(void *h, const char *name)
{
	intfn f = (intfn)dlsym(h, name);
	return f ? f() : -1;
}

static int loaded(const char *name)
{
	void *h = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
	dlerror();
	if (h)
		dlclose(h);
	return h != 0;
}

struct census {
	int n;
	unsigned long long adds, subs;
	char names[512];
};

static int census_cb(struct dl_phdr_info *i, size_t size, void *data)
{
	struct census *c = data;
	(void)size;
	c->n++;
	c->adds = i->dlpi_adds;
	c->subs = i->dlpi_subs;
	const char *b = base_name(i->dlpi_name);
	if (!strncmp(b, "libqr", 5) && strlen(c->names) + strlen(b) + 2 < sizeof c->names) {
		strcat(c->names, " ");
		strcat(c->names, b);
	}
	return 0;
}

static struct census census(void)
{
	struct census c;
	memset(&c, 0, sizeof c);
	dl_iterate_phdr(census_cb, &c);
	return c;
}

static void case_deps(void)
{
	void *h = dlopen("libqrtop.so", RTLD_NOW);
	say("top %s\n", h ? "loaded" : dlerror());
	say("top_value %d\n", call(h, "top_value"));
	void *h2 = dlopen("libqrtop.so", RTLD_LAZY);
	say("same handle twice %d\n", h == h2);
	void *hm = dlopen("libqrmid.so", RTLD_NOW);
	say("mid loaded with top, no constructor again %d\n", hm != 0);
	say("dep symbol through top handle %d\n", dlsym(h, "dep_value") != 0);
	say("top symbol through mid handle %d\n", dlsym(hm, "top_value") != 0);
	dlerror();
	say("local top not in default scope %d\n", dlsym(RTLD_DEFAULT, "top_value") == 0);
}

static void case_lazy(void)
{
	void *g = dlopen("libqrglob.so", RTLD_LAZY | RTLD_GLOBAL);
	say("glob lazy %s\n", g ? "loaded" : dlerror());
	void *u = dlopen("libqruser.so", RTLD_LAZY);
	say("user lazy %s\n", u ? "loaded" : dlerror());
	say("user_call %d\n", call(u, "user_call"));
	void *d = dlopen("libqruserdata.so", RTLD_NOW);
	say("userdata now %s\n", d ? "loaded" : dlerror());
	say("userdata_call %d\n", call(d, "userdata_call"));
}

static void case_scope(void)
{
	void *g = dlopen("libqrglob.so", RTLD_NOW | RTLD_LOCAL);
	say("glob local %s\n", g ? "loaded" : dlerror());
	say("default sees local glob %d\n", dlsym(RTLD_DEFAULT, "glob_provided") != 0);
	dlerror();
	say("handle sees its own symbol %d\n", call(g, "glob_provided"));
	void *u = dlopen("libqruser.so", RTLD_NOW);
	say("user with local glob: %s\n", u ? "loaded" : err_has("glob_provided"));
	void *g2 = dlopen("libqrglob.so", RTLD_NOW | RTLD_GLOBAL);
	say("promoted, same handle %d\n", g == g2);
	say("default sees global glob %d\n", dlsym(RTLD_DEFAULT, "glob_provided") != 0);
	u = dlopen("libqruser.so", RTLD_NOW);
	say("user with global glob: %s\n", u ? "loaded" : dlerror());
	say("user_call %d\n", call(u, "user_call"));
}

static void case_noload(void)
{
	void *h = dlopen("libqrunload.so", RTLD_NOW | RTLD_NOLOAD);
	say("noload before %d\n", h != 0);
	say("noload error %s\n", dlerror() ? "set" : "none");
	say("not loaded by noload %d\n", !loaded("libqrunload.so"));
	h = dlopen("libqrunload.so", RTLD_NOW);
	void *h2 = dlopen("libqrunload.so", RTLD_LAZY | RTLD_NOLOAD);
	say("noload after, same handle %d\n", h == h2);
}

static void case_nodelete(void)
{
	void *h = dlopen("libqrunload.so", RTLD_NOW | RTLD_NODELETE);
	say("unload_fn %d\n", call(h, "unload_fn"));
	say("dlclose %d\n", dlclose(h));
	say("still loaded %d\n", loaded("libqrunload.so"));
	void *h2 = dlopen("libqrunload.so", RTLD_NOW);
	say("reopen same %d\n", h == h2);
	say("exiting\n");
}

static void case_self(void)
{
	void *m = dlopen(NULL, RTLD_NOW);
	void *m2 = dlopen(NULL, RTLD_LAZY);
	say("self handle %d, twice same %d\n", m != 0, m == m2);
	say("exe symbol %d\n", dlsym(m, "rt_exported") == (void *)&rt_exported);
	say("libc symbol %d\n", dlsym(m, "strlen") == (void *)strlen);
	void *g = dlopen("libqrglob.so", RTLD_NOW | RTLD_LOCAL);
	say("local lib through self %d\n", dlsym(m, "glob_provided") != 0);
	dlerror();
	dlopen("libqrglob.so", RTLD_NOW | RTLD_GLOBAL);
	say("global lib through self %d\n", dlsym(m, "glob_provided") == dlsym(g, "glob_provided"));
}

static void case_fail(void)
{
	struct census c0 = census();
	void *h = dlopen("libqrbad.so", RTLD_NOW);
	say("bad: %s\n", h ? "loaded" : err_has("no_such_symbol_qb"));
	say("error cleared after read %d\n", dlerror() == 0);
	struct census c1 = census();
	say("objects unchanged %d, names unchanged %d\n", c0.n == c1.n, !strcmp(c0.names, c1.names));
	say("baddep left behind %d\n", loaded("libqrbaddep.so"));
	h = dlopen("libqrbad.so", RTLD_LAZY);
	say("bad lazy: %s\n", h ? "loaded" : err_has("no_such_symbol_qb"));
	h = dlopen("libqrneedsgone.so", RTLD_NOW);
	say("needsgone: %s\n", h ? "loaded" : err_has("libqrgone.so"));
	h = dlopen("libqr_missing.so", RTLD_NOW);
	say("missing: %s\n", h ? "loaded" : err_has("libqr_missing.so"));
	struct census c2 = census();
	say("objects unchanged %d, names unchanged %d\n", c0.n == c2.n, !strcmp(c0.names, c2.names));
	say("baddep left behind %d\n", loaded("libqrbaddep.so"));
	h = dlopen("libqrbaddep.so", RTLD_NOW);
	say("baddep alone: %d\n", call(h, "baddep_fn"));
}

static void case_dlsym(void)
{
	void *h = dlopen("libqrtop.so", RTLD_NOW);
	int found = dlsym(h, "qb_nonexistent") != 0;
	say("missing symbol %d: %s\n", found, err_has("qb_nonexistent"));
	say("default libc %d\n", dlsym(RTLD_DEFAULT, "strlen") == (void *)strlen);
	int x;
	found = dlsym(&x, "strlen") != 0;
	say("bad handle %d: %s\n", found, dlerror() ? "error" : "no error");
	int failed = dlclose(&x) != 0;
	say("dlclose bad handle %d: %s\n", failed, dlerror() ? "error" : "no error");
	intfn next = (intfn)dlsym(RTLD_NEXT, "top_value");
	say("next from exe, local lib %d\n", next != 0);
	dlerror();
}

static void case_dladdr(void)
{
	void *h = dlopen("libqrdep.so", RTLD_NOW);
	void *f = dlsym(h, "dep_value");
	Dl_info i;
	memset(&i, 0, sizeof i);
	int r = dladdr(f, &i);
	say("dladdr fn %d %s %s saddr %d\n", r, base_name(i.dli_fname), i.dli_sname ? i.dli_sname : "(null)",
	    i.dli_saddr == f);
	struct link_map *lm = 0;
	say("dlinfo linkmap %d\n", dlinfo(h, RTLD_DI_LINKMAP, &lm));
	say("linkmap name %s, fbase is l_addr %d\n", base_name(lm->l_name), (void *)lm->l_addr == i.dli_fbase);
	int *arr = dlsym(h, "dep_array");
	memset(&i, 0, sizeof i);
	r = dladdr(arr + 3, &i);
	say("dladdr data %d %s saddr %d\n", r, i.dli_sname ? i.dli_sname : "(null)", i.dli_saddr == arr);
	void *(*priv)(void) = (void *(*)(void))dlsym(h, "dep_private_addr");
	memset(&i, 0, sizeof i);
	r = dladdr(priv(), &i);
	say("dladdr local fn %d %s %s\n", r, base_name(i.dli_fname), i.dli_sname ? i.dli_sname : "(null)");
	memset(&i, 0, sizeof i);
	say("dladdr unmapped %d\n", dladdr((void *)16, &i));
	memset(&i, 0, sizeof i);
	r = dladdr(&rt_exported, &i);
	say("dladdr exe %d %s\n", r, i.dli_sname ? i.dli_sname : "(null)");
	int in_chain = 0;
	struct link_map *p = lm;
	while (p->l_prev)
		p = p->l_prev;
	for (; p; p = p->l_next)
		in_chain |= p == lm;
	say("linkmap chain from head reaches it %d\n", in_chain);
}

/* quickbind: dlinfo requests musl lacks (glibc's numbers). */
static void case_dlinfo(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/libqrdep.so", dir);
	void *h = dlopen(path, RTLD_NOW);
	char origin[4096] = "";
	int r = dlinfo(h, RTLD_DI_ORIGIN, origin);
	say("origin %d %s\n", r, strcmp(origin, dir) ? origin : "is the directory");
	size_t id = 99;
	r = dlinfo(h, RTLD_DI_TLS_MODID, &id);
	say("modid without tls %d %zu\n", r, id);
	void *data = (void *)1;
	r = dlinfo(h, RTLD_DI_TLS_DATA, &data);
	say("tls data without tls %d %p\n", r, data);
	void *t = dlopen("libqrtlsgd.so", RTLD_NOW);
	dlinfo(t, RTLD_DI_TLS_MODID, &id);
	dlinfo(t, RTLD_DI_TLS_DATA, &data);
	char *tv = dlsym(t, "tv");
	say("modid with tls nonzero %d, tv in block %d\n", id != 0, tv >= (char *)data && tv < (char *)data + 4096);
	r = dlinfo(h, 12345, &id);
	say("bad request %d: %s\n", r, dlerror() ? "error" : "no error");
}

static void *err_thread(void *arg)
{
	(void)arg;
	static char buf[256];
	const char *e = dlerror();
	snprintf(buf, sizeof buf, "thread sees %s", e ? "an error" : "no error");
	dlopen("libqr_missing_in_thread.so", RTLD_NOW);
	e = dlerror();
	snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", own error %s",
		 e && strstr(e, "in_thread") ? "names its library" : "wrong");
	return buf;
}

static void case_dlerror(void)
{
	dlopen("libqr_missing_main.so", RTLD_NOW);
	pthread_t t;
	void *res;
	pthread_create(&t, 0, err_thread, 0);
	pthread_join(t, &res);
	say("%s\n", (char *)res);
	say("main: %s\n", err_has("libqr_missing_main.so"));
	say("main after read: %s\n", dlerror() ? "error" : "no error");
}

struct tlsinfo {
	const char *lib;
	size_t modid;
	void *data;
	size_t memsz;
	int seen;
};

static int tls_cb(struct dl_phdr_info *i, size_t size, void *arg)
{
	struct tlsinfo *t = arg;
	(void)size;
	if (strcmp(base_name(i->dlpi_name), t->lib))
		return 0;
	t->seen = 1;
	t->modid = i->dlpi_tls_modid;
	t->data = i->dlpi_tls_data;
	for (int k = 0; k < i->dlpi_phnum; k++)
		if (i->dlpi_phdr[k].p_type == PT_TLS)
			t->memsz = i->dlpi_phdr[k].p_memsz;
	return 0;
}

static int addr_cb(struct dl_phdr_info *i, size_t size, void *arg)
{
	(void)size;
	struct link_map *lm = arg;
	if (strcmp(base_name(i->dlpi_name), base_name(lm->l_name)))
		return 0;
	int dyn_ok = 0;
	for (int k = 0; k < i->dlpi_phnum; k++)
		if (i->dlpi_phdr[k].p_type == PT_DYNAMIC)
			dyn_ok = (void *)(i->dlpi_addr + i->dlpi_phdr[k].p_vaddr) == (void *)lm->l_ld;
	return i->dlpi_addr == lm->l_addr && dyn_ok ? 1 : 2;
}

static void *tls_peek(void *arg)
{
	struct tlsinfo *t = arg;
	dl_iterate_phdr(tls_cb, t);
	return 0;
}

static void case_iterate(void)
{
	struct census c0 = census();
	void *h = dlopen("libqrtlsgd.so", RTLD_NOW);
	struct census c1 = census();
	say("adds grew %d, one more object %d, names%s\n", c1.adds > c0.adds, c1.n == c0.n + 1, c1.names);
	dlopen("libqrtlsgd.so", RTLD_NOW);
	struct census c2 = census();
	say("reopen: objects same %d\n", c2.n == c1.n);
	struct tlsinfo t = {.lib = "libqrtlsgd.so"};
	dl_iterate_phdr(tls_cb, &t);
	char *tv = dlsym(h, "tv");
	say("tls lib seen %d, modid nonzero %d, tv in data %d\n", t.seen, t.modid != 0,
	    tv >= (char *)t.data && tv < (char *)t.data + t.memsz);
	struct tlsinfo o = {.lib = "libqrtlsgd.so"};
	pthread_t th;
	pthread_create(&th, 0, tls_peek, &o);
	pthread_join(th, 0);
	say("other thread: same modid %d, other block %d\n", o.modid == t.modid, o.data != t.data && o.data);
	void *d = dlopen("libqrdep.so", RTLD_NOW);
	struct tlsinfo n = {.lib = "libqrdep.so"};
	dl_iterate_phdr(tls_cb, &n);
	say("no-tls lib: modid %zu, data %p\n", n.modid, n.data);
	struct link_map *lm;
	dlinfo(d, RTLD_DI_LINKMAP, &lm);
	say("dlpi_addr and PT_DYNAMIC match the link map %d\n", dl_iterate_phdr(addr_cb, lm));
}

static void case_unload_dep(void)
{
	void *m = dlopen("libqrmid.so", RTLD_NOW);
	void *t = dlopen("libqrtop.so", RTLD_NOW);
	dlclose(m);
	say("mid closed, needed by top: loaded %d\n", loaded("libqrmid.so"));
	dlclose(t);
	say("top closed: top %d mid %d dep %d\n", loaded("libqrtop.so"), loaded("libqrmid.so"),
	    loaded("libqrdep.so"));
}

/* libqrsiba.so is bound to libqrsibb.so through the scope of
 * libqrsibroot.so only: it must keep working once that root is gone. */
static void case_unload_sibling(void)
{
	void *r = dlopen("libqrsibroot.so", RTLD_NOW);
	void *a = dlopen("libqrsiba.so", RTLD_NOW);
	say("through root %d\n", call(r, "sibroot_fn"));
	dlclose(r);
	say("root closed: root %d a %d\n", loaded("libqrsibroot.so"), loaded("libqrsiba.so"));
	say("a after root closed %d\n", call(a, "sib_a_fn"));
	dlclose(a);
	say("a closed: a %d\n", loaded("libqrsiba.so"));
}

/* quickbind unloads what nothing references any more. */
static void case_unload(void)
{
	struct census c0 = census();
	void *h = dlopen("libqrtop.so", RTLD_NOW);
	struct census ca = census();
	dlopen("libqrtop.so", RTLD_NOW);
	struct census cb = census();
	say("adds grew by %llu, reopen adds %llu\n", ca.adds - c0.adds, cb.adds - ca.adds);
	dlclose(h);
	say("dlclose %d\n", dlclose(h));
	say("loaded after close: top %d mid %d dep %d\n", loaded("libqrtop.so"), loaded("libqrmid.so"),
	    loaded("libqrdep.so"));
	struct census c1 = census();
	say("subs grew by %llu, objects back %d\n", c1.subs - c0.subs, c1.n == c0.n);

	h = dlopen("libqrunload.so", RTLD_NOW);
	dlclose(h);
	h = dlopen("libqrunload.so", RTLD_NOW);
	say("reopened unload_fn %d\n", call(h, "unload_fn"));
	void *h2 = dlopen("libqrunload.so", RTLD_NOW);
	dlclose(h);
	say("two opens, one close: loaded %d\n", loaded("libqrunload.so"));
	dlclose(h2);
	say("both closed: loaded %d\n", loaded("libqrunload.so"));

	say("closed handle again: %d\n", dlclose(h2) != 0);
	dlerror();

	h = dlopen("libqrtlsgd.so", RTLD_NOW);
	dlclose(h);
	say("tls lib stays %d\n", loaded("libqrtlsgd.so"));
	h = dlopen("libqratexit.so", RTLD_NOW);
	dlclose(h);
	say("atexit lib stays %d\n", loaded("libqratexit.so"));

	void *g = dlopen("libqrglob.so", RTLD_NOW | RTLD_GLOBAL);
	void *u = dlopen("libqruser.so", RTLD_NOW);
	dlclose(g);
	say("bound-to lib stays %d, user_call %d\n", loaded("libqrglob.so"), call(u, "user_call"));
	say("exiting\n");
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	if (!strcmp(c, "deps")) case_deps();
	else if (!strcmp(c, "lazy")) case_lazy();
	else if (!strcmp(c, "scope")) case_scope();
	else if (!strcmp(c, "noload")) case_noload();
	else if (!strcmp(c, "nodelete")) case_nodelete();
	else if (!strcmp(c, "self")) case_self();
	else if (!strcmp(c, "fail")) case_fail();
	else if (!strcmp(c, "dlsym")) case_dlsym();
	else if (!strcmp(c, "dladdr")) case_dladdr();
	else if (!strcmp(c, "dlinfo") && argc > 2) case_dlinfo(argv[2]);
	else if (!strcmp(c, "dlerror")) case_dlerror();
	else if (!strcmp(c, "iterate")) case_iterate();
	else if (!strcmp(c, "unload")) case_unload();
	else if (!strcmp(c, "unload_dep")) case_unload_dep();
	else if (!strcmp(c, "unload_sibling")) case_unload_sibling();
	else {
		say("usage: rt CASE\n");
		return 2;
	}
	return 0;
}
