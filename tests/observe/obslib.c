/* The observables suite's libraries, one source: -DNAME=x gives obs_x()
 * and obs_x_data, a constructor and a destructor that report themselves
 * (write(2): in the order they run, whatever stdio buffers), and with
 * -DOPENS="lib" a constructor that dlopens lib; -DSYM="v" defines obs_sym
 * returning v, -DPRE="v" obs_pre, -DUSER a use of obs_sym defined
 * elsewhere, -DTLS a thread-local variable; -DTHREADS a constructor that
 * waits for threads using the loader (musl runs constructors outside its
 * lock); -DDTOR_OPENS="lib" a destructor that dlopens lib; -DCTOR_EXIT a
 * constructor that calls exit; -DSYMS_DEF obs_f1, obs_f2 and obs_v3
 * (symsprog.c uses them); -DREF_GONE a use of obs_gone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S2(x) #x
#define S(x) S2(x)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

static void say(const char *what, const char *more)
{
	char b[256];
	int n = snprintf(b, sizeof b, "ev %s %s%s%s\n", what, S(NAME), more ? " " : "", more ? more : "");
	if (write(1, b, (size_t)n) < 0)
		_exit(3);
}

#ifdef THREADS
static int count(struct dl_phdr_info *i, size_t s, void *d)
{
	(void)i;
	(void)s;
	++*(int *)d;
	return 0;
}

/* What a thread started by a constructor can do while the constructor
 * waits for it. */
static void *worker(void *arg)
{
	const char *what = arg;
	static char r[256];
	Dl_info di;
	int n = 0;
	if (!strcmp(what, "dl_iterate_phdr")) {
		dl_iterate_phdr(count, &n);
		snprintf(r, sizeof r, "%s", n > 3 ? "objects" : "few");
	} else if (!strcmp(what, "dlsym")) {
		snprintf(r, sizeof r, "%s", dlsym(RTLD_DEFAULT, "obs_c") ? "found" : dlerror());
	} else if (!strcmp(what, "dlsym-self")) {
		/* the object whose constructor waits is loaded, not constructed */
		snprintf(r, sizeof r, "%s", dlsym(RTLD_DEFAULT, "obs_thr") ? "found" : dlerror());
	} else if (!strcmp(what, "dladdr")) {
		snprintf(r, sizeof r, "%d %s", dladdr((void *)worker, &di), dladdr((void *)worker, &di) ?
			 (strstr(di.dli_fname, "libobthr.so") ? "libobthr.so" : di.dli_fname) : "");
	} else if (!strcmp(what, "dlerror")) {
		snprintf(r, sizeof r, "%s", dlerror() ? "set" : "(null)");
	} else if (!strcmp(what, "dlopen")) {
		void *h = dlopen("libobf.so", RTLD_NOW);
		snprintf(r, sizeof r, "%s", h ? "ok" : dlerror());
	} else if (!strcmp(what, "dlopen-fail")) {
		void *h = dlopen("libobmiss.so", RTLD_NOW);
		snprintf(r, sizeof r, "%s", h ? "ok" : dlerror());
	}
	return r;
}
#endif

__attribute__((constructor)) static void ctor(void)
{
	say("ctor", 0);
#ifdef OPENS
	void *h = dlopen(OPENS, RTLD_NOW);
	say("ctor-dlopen", h ? "ok" : dlerror());
#endif
#ifdef CTOR_EXIT
	exit(3);
#endif
#ifdef THREADS
	static const char *const jobs[] = { "dl_iterate_phdr", "dlsym", "dlsym-self", "dladdr",
		"dlerror", "dlopen", "dlopen-fail", "dlerror" };
	for (size_t i = 0; i < sizeof jobs / sizeof *jobs; i++) {
		pthread_t t;
		void *r = 0;
		char b[320];
		if (pthread_create(&t, 0, worker, (void *)jobs[i]) || pthread_join(t, &r))
			r = "no thread";
		snprintf(b, sizeof b, "%s: %s", jobs[i], (const char *)r);
		say("ctor-thread", b);
	}
	/* a failing dlopen in the constructor itself, and its error here only */
	void *m = dlopen("libobmiss.so", RTLD_NOW);
	say("ctor-dlopen-fail", m ? "ok" : dlerror());
	say("ctor-dlerror", dlerror() ? "set" : "(null)");
#endif
}

__attribute__((destructor)) static void dtor(void)
{
	say("dtor", 0);
#ifdef DTOR_OPENS
	void *h = dlopen(DTOR_OPENS, RTLD_NOW);
	say("dtor-dlopen", h ? "ok" : dlerror());
#endif
}

int CAT(CAT(obs_, NAME), _data) = 1;

const char *CAT(obs_, NAME)(void)
{
	return S(NAME);
}

#ifdef SYM
const char *obs_sym(void)
{
	return SYM;
}
#endif

#ifdef PRE
const char *obs_pre(void)
{
	return PRE;
}
#endif

#ifdef USER
const char *obs_sym(void);
const char *obs_user(void)
{
	return obs_sym();
}
#endif

#ifdef TLS
__thread int obs_tls_var = 5;
int obs_tls_get(void)
{
	return obs_tls_var;
}
#endif

#ifdef UNDEF_DATA
extern int obs_undefined_var;
int obs_undef_get(void)
{
	return obs_undefined_var;
}
#endif

#ifdef UNDEF_FN
int obs_undefined_fn(void);
int obs_undef_call(void)
{
	return obs_undefined_fn();
}
#endif

#ifdef SYMS_DEF
int obs_f1(void)
{
	return 1;
}
int obs_f2(void)
{
	return 2;
}
int obs_v3 = 3;
#endif

#ifdef REF_GONE
int obs_gone(void);
int obs_ref_gone(void)
{
	return obs_gone();
}
#endif
