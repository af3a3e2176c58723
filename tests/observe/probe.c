/* The observables suite's probe (tests/test_observe.c): one musl program
 * that prints, one "key value" line each, what a program can see of its
 * loader, for a scenario named by its first argument. The suite runs it
 * under musl's loader and quickbind and compares the lines key by key. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

static void out(const char *key, const char *fmt, ...)
{
	va_list ap;
	printf("%s ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static const char *str(const char *s)
{
	return s ? s : "(null)";
}

static void err(const char *key)
{
	const char *e = dlerror();
	out(key, "%s", str(e));
}

/* ------------------------------------------------------------ names -- */

static int first_name(struct dl_phdr_info *i, size_t s, void *d)
{
	(void)s;
	*(const char **)d = i->dlpi_name;
	return 1;
}

static void names(char **argv)
{
	out("argv0", "%s", argv[0]);
	out("execfn", "%s", str((const char *)getauxval(AT_EXECFN)));
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = 0;
	out("exe", "%s", exe);
	struct link_map *lm = 0;
	dlinfo(dlopen(0, RTLD_NOW), RTLD_DI_LINKMAP, &lm);
	out("lm.main", "%s", lm ? str(lm->l_name) : "?");
	const char *first = 0;
	dl_iterate_phdr(first_name, &first);
	out("it.first", "%s", str(first));
	Dl_info di;
	int r = dladdr((void *)names, &di);
	out("dladdr.main", "%d %s", r, r ? str(di.dli_fname) : "");
	char o[PATH_MAX] = "";
	r = dlinfo(dlopen(0, RTLD_NOW), 6 /* glibc's RTLD_DI_ORIGIN */, o);
	out("dlinfo.origin", "%d %s", r, r ? "" : o);
	dlerror();
}

/* ------------------------------------------------------------- list -- */

struct walk {
	int n;
};

static int list_one(struct dl_phdr_info *i, size_t s, void *d)
{
	(void)s;
	struct walk *w = d;
	size_t vdso = getauxval(AT_SYSINFO_EHDR);
	int is_vdso = 0, eh = 0, dyn = 0;
	for (int k = 0; k < i->dlpi_phnum; k++) {
		const ElfW(Phdr) *ph = &i->dlpi_phdr[k];
		if (ph->p_type == PT_LOAD && !ph->p_offset && i->dlpi_addr + ph->p_vaddr == vdso)
			is_vdso = 1;
		eh |= ph->p_type == PT_GNU_EH_FRAME;
		dyn |= ph->p_type == PT_DYNAMIC;
	}
	out("it", "%s vdso=%d eh=%d dyn=%d tls=%zu tlsdata=%d", i->dlpi_name, is_vdso, eh, dyn,
	    i->dlpi_tls_modid, i->dlpi_tls_data != 0);
	out("it.adds", "%llu", (unsigned long long)i->dlpi_adds);
	out("it.subs", "%llu", (unsigned long long)i->dlpi_subs);
	w->n++;
	return 0;
}

static void lists(const char *when)
{
	struct walk w = { 0 };
	out("when", "%s", when);
	dl_iterate_phdr(list_one, &w);
	out("it.count", "%d", w.n);
	struct link_map *lm = 0, *prev = 0;
	dlinfo(dlopen(0, RTLD_NOW), RTLD_DI_LINKMAP, &lm);
	int n = 0, linked = 1;
	for (; lm; prev = lm, lm = lm->l_next, n++) {
		linked &= lm->l_prev == prev;
		out("lm", "%s", str(lm->l_name));
	}
	out("lm.count", "%d", n);
	out("lm.prev", "%s", linked ? "linked" : "broken");
}

static void list(int argc, char **argv)
{
	lists("start");
	for (int i = 2; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW | (i % 2 ? RTLD_GLOBAL : RTLD_LOCAL));
		out("dlopen", "%s %s", argv[i], h ? "ok" : str(dlerror()));
		lists(argv[i]);
	}
}

/* --------------------------------------------------------------- dl -- */

static void addr(const char *key, const void *a)
{
	Dl_info di;
	memset(&di, 0, sizeof di);
	int r = dladdr(a, &di);
	if (!r) {
		out(key, "0");
		return;
	}
	out(key, "1 %s %s %s %s", str(di.dli_fname), str(di.dli_sname),
	    di.dli_fbase ? "fbase" : "nofbase",
	    !di.dli_saddr ? "nosaddr" : di.dli_saddr == a ? "saddr=addr" : "saddr<addr");
}

typedef const char *(*namefn)(void);

static void dl(void)
{
	err("dlerror.none");
	void *self = dlopen(0, RTLD_NOW);
	out("dlopen.null", "%s", self ? "handle" : "null");
	out("dlsym.self.main", "%s", dlsym(self, "main") ? "found" : str(dlerror()));
	out("dlsym.default.printf", "%s", dlsym(RTLD_DEFAULT, "printf") ? "found" : str(dlerror()));
	out("dlsym.next.printf", "%s", dlsym(RTLD_NEXT, "printf") ? "found" : str(dlerror()));
	out("dlsym.default.nope", "%s", dlsym(RTLD_DEFAULT, "obs_no_such_symbol") ? "found" : "null");
	err("dlerror.nosym");
	err("dlerror.again");

	static const char *const bad[] = {
		"libobs_no_such.so", "./libobs_no_such.so", "/nonexistent/libx.so", "./notelf.so",
		"./libobmiss.so", "./libobundef.so", "./", "",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char key[64];
		snprintf(key, sizeof key, "dlopen.bad%zu", i);
		void *h = dlopen(bad[i], RTLD_NOW);
		out(key, "%s %s", bad[i], h ? "ok" : str(dlerror()));
	}
	void *lazy = dlopen("./libobundeffn.so", RTLD_LAZY);
	out("dlopen.undeffn.lazy", "%s", lazy ? "ok" : str(dlerror()));
	void *now = dlopen("./libobundeffn.so", RTLD_NOW);
	out("dlopen.undeffn.now", "%s", now ? "ok" : str(dlerror()));
	out("dlopen.noload.absent", "%s", dlopen("./libobc.so", RTLD_NOW | RTLD_NOLOAD) ? "ok" : str(dlerror()));

	/* reserved names: the loader itself */
	static const char *const libc_names[] = {
		"libc.so", "libc.so.6", "libdl.so.2", "libpthread.so.0", "libm.so.6", "librt.so.1",
		"libutil.so.1", "libxnet.so", "libc.musl-x86_64.so.1", "libc.musl-i386.so.1",
	};
	void *libc = dlopen("libc.so", RTLD_NOW);
	for (size_t i = 0; i < sizeof libc_names / sizeof *libc_names; i++) {
		char key[64];
		snprintf(key, sizeof key, "dlopen.reserved%zu", i);
		void *h = dlopen(libc_names[i], RTLD_NOW);
		out(key, "%s %s", libc_names[i], !h ? str(dlerror()) : h == libc ? "libc" : "other");
	}
	/* C libraries named by path: never a second one beside the loader */
#ifdef __x86_64__
	static const char *const libc_files[] = { "/lib/ld-musl-x86_64.so.1",
		"/usr/lib/x86_64-linux-musl/libc.so", "/lib/x86_64-linux-gnu/libc.so.6" };
#else
	static const char *const libc_files[] = { "/lib/ld-musl-i386.so.1",
		"/usr/lib/i386-linux-musl/libc.so", "/usr/i686-linux-gnu/lib/libc.so.6" };
#endif
	for (size_t i = 0; i < sizeof libc_files / sizeof *libc_files; i++) {
		char key[64];
		snprintf(key, sizeof key, "dlopen.libcfile%zu", i);
		void *h = dlopen(libc_files[i], RTLD_NOW);
		out(key, "%s", !h ? str(dlerror()) : h == libc ? "libc" : "other");
	}

	void *a = dlopen("./libob_a.so", RTLD_NOW);
	out("dlopen.a", "%s", a ? "ok" : str(dlerror()));
	if (!a)
		return;
	void *a2 = dlopen("libob_a.so", RTLD_NOW);
	out("dlopen.a.byname", "%s", a2 == a ? "same" : a2 ? "other" : str(dlerror()));
	char abs[PATH_MAX];
	if (realpath("./libob_a.so", abs)) {
		void *a3 = dlopen(abs, RTLD_NOW);
		out("dlopen.a.abs", "%s", a3 == a ? "same" : a3 ? "other" : str(dlerror()));
	}
	void *c = dlopen("./libobc.so", RTLD_NOW | RTLD_NOLOAD);
	out("dlopen.noload.dep", "%s", c ? "ok" : str(dlerror()));
	void *cs = dlopen("libobc.so", RTLD_NOW | RTLD_NOLOAD);
	out("dlopen.noload.dep.byname", "%s", cs == c ? "same" : cs ? "other" : str(dlerror()));
	out("dlsym.a.obs_a", "%s", dlsym(a, "obs_a") ? "found" : str(dlerror()));
	out("dlsym.a.obs_c", "%s", dlsym(a, "obs_c") ? "found (dependency)" : str(dlerror()));
	out("dlsym.a.printf", "%s", dlsym(a, "printf") ? "found" : str(dlerror()));
	out("dlsym.a.nope", "%s", dlsym(a, "obs_nope") ? "found" : str(dlerror()));
	out("dlsym.default.obs_a", "%s", dlsym(RTLD_DEFAULT, "obs_a") ? "found" : str(dlerror()));
	out("dlsym.bad", "%s", dlsym((void *)&abs, "x") ? "found" : str(dlerror()));
	err("dlerror.after");

	namefn fa = (namefn)dlsym(a, "obs_a");
	addr("dladdr.lib.fn", (const void *)fa);
	addr("dladdr.lib.mid", (const char *)(const void *)fa + 1);
	addr("dladdr.lib.data", dlsym(a, "obs_a_data"));
	addr("dladdr.main", (const void *)dl);
	addr("dladdr.libc", (const void *)printf);
	addr("dladdr.stack", &fa);
	addr("dladdr.null", 0);
	addr("dladdr.vdso", (const char *)getauxval(AT_SYSINFO_EHDR) + 0x100);
	void *vsym = dlsym(dlopen("linux-gate.so.1", RTLD_NOW), "__vdso_clock_gettime");
	out("dlsym.vdso", "%s", vsym ? "found" : "null");
	dlerror();

	struct link_map *lm = 0;
	int rc = dlinfo(a, RTLD_DI_LINKMAP, &lm);
	out("dlinfo.linkmap", "%d %s", rc, lm ? str(lm->l_name) : "");
	size_t modid = 0;
	void *tls = dlopen("./libobtls.so", RTLD_NOW);
	rc = dlinfo(tls, 9 /* glibc's RTLD_DI_TLS_MODID */, &modid);
	out("dlinfo.tls_modid", "%d %s", rc, modid ? "modid" : str(dlerror()));
	void *data = 0;
	rc = dlinfo(tls, 10 /* glibc's RTLD_DI_TLS_DATA */, &data);
	out("dlinfo.tls_data", "%d %s", rc, data ? "data" : str(dlerror()));
	rc = dlinfo(a, 12345, &lm);
	out("dlinfo.unsupported", "%d %s", rc, str(dlerror()));
	rc = dlinfo((void *)&lm, RTLD_DI_LINKMAP, &lm);
	out("dlinfo.badhandle", "%d %s", rc, str(dlerror()));

	rc = dlclose((void *)&lm);
	out("dlclose.bad", "%d %s", rc, str(dlerror()));
	out("dlclose.a", "%d", dlclose(a));
	out("dlclose.a2", "%d", dlclose(a2));
	err("dlerror.close");
	/* musl keeps every object: the handle, the code and its state stay */
	void *again = dlopen("./libob_a.so", RTLD_NOW | RTLD_NOLOAD);
	out("dlclose.still.loaded", "%s", again ? "loaded" : "gone");
	out("dlclose.fn", "%s", fa());
	out("dlclose.again", "%d", again ? dlclose(again) : -1);
	out("dlclose.self", "%d", dlclose(self));
	void *nd = dlopen("./libobd.so", RTLD_NOW | RTLD_NODELETE);
	out("dlopen.nodelete", "%s", nd ? "ok" : str(dlerror()));
	out("dlclose.nodelete", "%d", nd ? dlclose(nd) : -1);
	out("dlopen.nodelete.kept", "%s", dlopen("./libobd.so", RTLD_NOW | RTLD_NOLOAD) ? "loaded" : "gone");
}

/* ---------------------------------------------------------- promote -- */

static const char *sym_default(void)
{
	namefn f = (namefn)dlsym(RTLD_DEFAULT, "obs_sym");
	return f ? f() : "(none)";
}

static void promote(void)
{
	void *a = dlopen("./libobsa.so", RTLD_NOW | RTLD_LOCAL);
	out("local", "%s", sym_default());
	void *b = dlopen("./libobsb.so", RTLD_NOW | RTLD_GLOBAL);
	out("global.b", "%s", sym_default());
	void *a2 = dlopen("./libobsa.so", RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
	out("promoted.a", "%s %s", a2 == a ? "same" : "other", sym_default());
	/* a library loaded now binds its reference by the scope's order */
	void *u = dlopen("./libobsuser.so", RTLD_NOW);
	namefn f = u ? (namefn)dlsym(u, "obs_user") : 0;
	out("user", "%s", f ? f() : str(dlerror()));
	namefn nx = (namefn)dlsym(RTLD_NEXT, "obs_sym");
	out("next", "%s", nx ? nx() : "(none)");
	(void)b;
}

/* ------------------------------------------------------------ stack -- */

static size_t default_stack(void)
{
	pthread_attr_t a;
	size_t s = 0;
	pthread_getattr_default_np(&a);
	pthread_attr_getstacksize(&a, &s);
	return s;
}

static void *thread_stack(void *arg)
{
	(void)arg;
	pthread_attr_t a;
	size_t s = 0;
	pthread_getattr_np(pthread_self(), &a);
	pthread_attr_getstacksize(&a, &s);
	return (void *)s;
}

static void stack_line(const char *key)
{
	pthread_t t;
	void *s = 0;
	if (pthread_create(&t, 0, thread_stack, 0) || pthread_join(t, &s))
		s = 0;
	/* a thread's stack holds its TLS and guard too: KiB, rounded down */
	out(key, "default=%zu thread=%zuK", default_stack(), (size_t)s >> 16 << 6);
}

static void stack(int argc, char **argv)
{
	stack_line("start");
	for (int i = 2; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW);
		out("dlopen", "%s %s", argv[i], h ? "ok" : str(dlerror()));
		stack_line("after");
	}
}

/* ------------------------------------------------------------ ctors -- */

static void at_exit(void)
{
	out("ev", "atexit main");
}

static void ctors(int argc, char **argv)
{
	atexit(at_exit);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strncmp(a, "close:", 6)) {
			void *h = dlopen(a + 6, RTLD_NOW | RTLD_NOLOAD);
			out("ev", "dlclose %s %d", a + 6, h ? dlclose(h) + dlclose(h) : -1);
			continue;
		}
		out("ev", "dlopen %s", a);
		void *h = dlopen(a, RTLD_NOW);
		out("ev", "dlopen %s %s", a, h ? "done" : str(dlerror()));
	}
	out("ev", "exit");
}

/* ------------------------------------------------------------- maps -- */

/* The process's heap, stack and vDSO, as /proc/self/maps names them. */
static void maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	while (f && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		const char *tag = strrchr(line, '[');
		if (tag && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			size_t n = strcspn(tag, "]\n");
			printf("map %.*s 0x%lx 0x%lx\n", (int)n - 1, tag + 1, lo, hi);
		}
	}
	if (f)
		fclose(f);
}

/* ----------------------------------------------------- iterate-waits -- */

/* A dl_iterate_phdr callback that waits for a thread using the loader:
 * musl holds its lock only to step from one object to the next. */
static void *iterate_worker(void *arg)
{
	void *h = dlopen(arg, RTLD_NOW);
	out("iterate.thread.dlopen", "%s", h ? "ok" : str(dlerror()));
	out("iterate.thread.dlsym", "%s", dlsym(RTLD_DEFAULT, "printf") ? "found" : "null");
	Dl_info di;
	out("iterate.thread.dladdr", "%s", dladdr((void *)printf, &di) ? "found" : "none");
	return 0;
}

static int iterate_waits_cb(struct dl_phdr_info *i, size_t s, void *d)
{
	(void)i;
	(void)s;
	pthread_t t;
	if (pthread_create(&t, 0, iterate_worker, d) || pthread_join(t, 0))
		out("iterate.thread", "not started");
	return 1;
}

static int count_objects(struct dl_phdr_info *i, size_t s, void *d)
{
	(void)i;
	(void)s;
	++*(int *)d;
	return 0;
}

static void iterate_waits(int argc, char **argv)
{
	if (argc < 3)
		return;
	int before = 0, after = 0;
	dl_iterate_phdr(count_objects, &before);
	out("iterate.first", "%d", dl_iterate_phdr(iterate_waits_cb, argv[2]));
	dl_iterate_phdr(count_objects, &after);
	out("iterate.added", "%d", after - before);
}

/* -------------------------------------------------------------- fds -- */

/* The descriptors open when main starts: the loader's own are closed. */
static void fds(void)
{
	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			out("open", "%d", fd);
}

/* ------------------------------------------------------------ hello -- */

static void hello(int argc, char **argv)
{
	out("argv0", "%s", argv[0]);
	for (int i = 2; i < argc; i++)
		out("arg", "%s", argv[i]);
	namefn f = (namefn)dlsym(RTLD_DEFAULT, "obs_pre");
	out("obs_pre", "%s", f ? f() : "(none)");
}

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "hello";
	if (!strcmp(s, "names"))
		names(argv);
	else if (!strcmp(s, "list"))
		list(argc, argv);
	else if (!strcmp(s, "dl"))
		dl();
	else if (!strcmp(s, "promote"))
		promote();
	else if (!strcmp(s, "stack"))
		stack(argc, argv);
	else if (!strcmp(s, "ctors"))
		ctors(argc, argv);
	else if (!strcmp(s, "maps"))
		maps();
	else if (!strcmp(s, "fds"))
		fds();
	else if (!strcmp(s, "iterate-waits"))
		iterate_waits(argc, argv);
	else
		hello(argc, argv);
	return 0;
}
