/* Threads and the loader: `thr tls` (a dlopened library's TLS in threads
 * older and newer than the dlopen), `thr stress` (8 threads opening,
 * querying and closing libraries at once), `thr fork` (fork while
 * another thread is inside dlopen). Prints facts; exit 0 when all hold. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "say.h"

#define NPRE 3
#define NPOST 3
#define NT (NPRE + 1 + NPOST)

static const char *const tls_libs[2] = {"libqrtlsgd.so", "libqrtlsdesc.so"};
static void *tls_h[2];
static pthread_barrier_t loaded_bar, written_bar;
static void *addrs[NT][2];
static char verdict[NT][2][128];

typedef void *(*addrfn)(void);

static void check_tls(int id)
{
	for (int l = 0; l < 2; l++) {
		int *tv = ((int *(*)(void))dlsym(tls_h[l], "tls_tv"))();
		char *s = ((char *(*)(void))dlsym(tls_h[l], "tls_str"))();
		long *z = ((long *(*)(void))dlsym(tls_h[l], "tls_z"))();
		int *al = ((int *(*)(void))dlsym(tls_h[l], "tls_aligned"))();
		int zero = 1;
		for (int k = 0; k < 32; k++)
			zero &= z[k] == 0;
		int init = *tv == 7 && !strcmp(s, "init") && zero && *al == 3;
		int aligned = ((uintptr_t)al & 63) == 0;
		int dlsym_same = dlsym(tls_h[l], "tv") == (void *)tv;
		addrs[id][l] = tv;
		*tv = 1000 + id;
		snprintf(s, 16, "t%d", id);
		z[31] = id;
		pthread_barrier_wait(&written_bar);
		int kept = *tv == 1000 + id && s[0] == 't' && atoi(s + 1) == id && z[31] == id;
		snprintf(verdict[id][l], sizeof verdict[id][l],
			 "initial values %d, aligned %d, dlsym agrees %d, own values kept %d",
			 init, aligned, dlsym_same, kept);
		if (l == 0)
			pthread_barrier_wait(&written_bar);
	}
}

static void *pre_thread(void *arg)
{
	int id = (int)(intptr_t)arg;
	pthread_barrier_wait(&loaded_bar);
	check_tls(id);
	return 0;
}

static void *post_thread(void *arg)
{
	check_tls((int)(intptr_t)arg);
	return 0;
}

static int run_tls(void)
{
	pthread_t t[NT];
	pthread_barrier_init(&loaded_bar, 0, NPRE + 1);
	pthread_barrier_init(&written_bar, 0, NT);
	for (int i = 0; i < NPRE; i++)
		pthread_create(&t[i], 0, pre_thread, (void *)(intptr_t)i);
	/* The threads above exist, blocked, while the libraries come in. */
	for (int l = 0; l < 2; l++) {
		tls_h[l] = dlopen(tls_libs[l], RTLD_NOW);
		if (!tls_h[l]) {
			say("dlopen %s: %s\n", tls_libs[l], dlerror());
			return 1;
		}
	}
	pthread_barrier_wait(&loaded_bar);
	for (int i = NPRE + 1; i < NT; i++)
		pthread_create(&t[i], 0, post_thread, (void *)(intptr_t)i);
	check_tls(NPRE);
	for (int i = 0; i < NT; i++)
		if (i != NPRE)
			pthread_join(t[i], 0);
	int distinct = 1;
	for (int i = 0; i < NT; i++)
		for (int j = 0; j < i; j++)
			for (int l = 0; l < 2; l++)
				distinct &= addrs[i][l] != addrs[j][l];
	for (int i = 0; i < NT; i++)
		for (int l = 0; l < 2; l++)
			say("%s thread %d (%s): %s\n", tls_libs[l], i,
			    i < NPRE ? "before dlopen" : i == NPRE ? "main" : "after dlopen",
			    verdict[i][l]);
	say("blocks distinct across threads %d\n", distinct);
	return 0;
}

#define NLIB 4
#define NTHREAD 8
#define ITER 150
static const char *const slibs[NLIB] = {"libqrs0.so", "libqrs1.so", "libqrs2.so", "libqrs3.so"};
static int stress_bad[NTHREAD];
static char stress_why[NTHREAD][160];

#define FAIL(...) (stress_bad[id]++ ? 0 : snprintf(stress_why[id], sizeof stress_why[id], __VA_ARGS__))

static int count_cb(struct dl_phdr_info *i, size_t size, void *data)
{
	(void)i;
	(void)size;
	++*(int *)data;
	return 0;
}

static void *stress_thread(void *arg)
{
	int id = (int)(intptr_t)arg;
	for (int i = 0; i < ITER; i++) {
		int k = (id + i) % NLIB;
		void *h = dlopen(slibs[k], RTLD_NOW | (i % 3 == 0 ? RTLD_GLOBAL : RTLD_LOCAL));
		if (!h) {
			FAIL("dlopen %s: %s", slibs[k], dlerror());
			continue;
		}
		int (*f)(void) = (int (*)(void))dlsym(h, "s_id");
		if (!f || f() != k)
			FAIL("dlsym %s: %p", slibs[k], (void *)f);
		if (i % 10 == 0) {
			int n = 0;
			dl_iterate_phdr(count_cb, &n);
			Dl_info di;
			if (n < 2)
				FAIL("dl_iterate_phdr: %d objects", n);
			else if (!dladdr((void *)f, &di))
				FAIL("dladdr %s: nothing", slibs[k]);
			else if (strcmp(strrchr(di.dli_fname, '/') + 1, slibs[k]))
				FAIL("dladdr %s: %s", slibs[k], di.dli_fname);
		}
		if (i % 25 == 0) {
			char name[64];
			snprintf(name, sizeof name, "libqr_missing_%d.so", id);
			const char *e = 0;
			if (dlopen(name, RTLD_NOW) || !(e = dlerror()) || !strstr(e, name))
				FAIL("dlerror for %s: %s", name, e ? e : "none");
		}
		if (dlclose(h))
			FAIL("dlclose %s: %s", slibs[k], dlerror());
	}
	return 0;
}

static int run_stress(void)
{
	pthread_t t[NTHREAD];
	for (int i = 0; i < NTHREAD; i++)
		pthread_create(&t[i], 0, stress_thread, (void *)(intptr_t)i);
	for (int i = 0; i < NTHREAD; i++)
		pthread_join(t[i], 0);
	for (int i = 0; i < NTHREAD; i++)
		say("thread %d failures %d %s\n", i, stress_bad[i], stress_why[i]);
	return 0;
}

static volatile int stop;

static void *churn(void *arg)
{
	(void)arg;
	for (int i = 0; !stop; i++) {
		void *h = dlopen(slibs[i % NLIB], RTLD_NOW);
		if (h) {
			dlsym(h, "s_id");
			dlclose(h);
		}
	}
	return 0;
}

#define NFORK 30

static int run_fork(void)
{
	pthread_t t;
	pthread_create(&t, 0, churn, 0);
	int ok = 0;
	for (int i = 0; i < NFORK; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			alarm(5);
			void *h = dlopen("libqrglob.so", RTLD_NOW);
			int (*f)(void) = h ? (int (*)(void))dlsym(h, "glob_provided") : 0;
			void *s = dlopen(slibs[i % NLIB], RTLD_NOW);
			/* forked while the other thread ran that library's
			 * constructor, outside the lock as musl runs them: it can
			 * never be finished here, and dlopen says so, as musl's
			 * does */
			const char *e = s ? 0 : dlerror();
			if (e && strstr(e, "is inconsistent due to multithreaded fork"))
				_exit(f && f() == 42 ? 0 : 1);
			int (*g)(void) = s ? (int (*)(void))dlsym(s, "s_id") : 0;
			_exit(f && f() == 42 && g && g() == i % NLIB ? 0 : 1);
		}
		int st;
		if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			ok++;
		else if (pid > 0)
			say("child %d: status %#x\n", i, st);
	}
	stop = 1;
	pthread_join(t, 0);
	say("children that could dlopen and dlsym (or were told of the fork): %d of %d\n", ok, NFORK);
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	if (!strcmp(c, "tls"))
		return run_tls();
	if (!strcmp(c, "stress"))
		return run_stress();
	if (!strcmp(c, "fork"))
		return run_fork();
	say("usage: thr tls|stress|fork\n");
	return 2;
}
