/* tls-pointer-init in every thread: the program's and a needed library's
 * initial TLS hold addresses (relative and symbolic); a library dlopened
 * later does too. The main thread, a thread created before the dlopen and
 * one created after each check their own copies. */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

extern int lib_global;
const char *get(void);
int *get_sym(void);

static __thread const char *s = "x";
__thread int *psym = &lib_global;
__thread int (*pputs)(const char *) = puts;

static void (*report)(const char *, const char *);
static sem_t go, done;

static void check_static(const char *who)
{
	int ok = !strcmp(s, "x") && psym == &lib_global && pputs == puts &&
		!strcmp(get(), "libstr") && get_sym() == &lib_global;
	printf("%s: static %s %s %s %d\n", who, ok ? "ok" : "BAD", s, get(), *get_sym());
	s = who;
}

static void *early(void *arg)
{
	(void)arg;
	check_static("early");
	sem_post(&done);
	sem_wait(&go);
	report("early", "dlstr");
	sem_post(&done);
	return 0;
}

static void *late(void *arg)
{
	(void)arg;
	check_static("late");
	report("late", "dlstr");
	return 0;
}

int main(int argc, char **argv)
{
	const char *lib = argc > 1 ? argv[1] : "./libtlsdl.so";
	pthread_t a, b;
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	check_static("main");
	if (pthread_create(&a, 0, early, 0))
		return 2;
	sem_wait(&done);
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h || !(report = (void (*)(const char *, const char *))dlsym(h, "report"))) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	report("main", "dlstr");
	sem_post(&go);
	sem_wait(&done);
	pthread_join(a, 0);
	if (pthread_create(&b, 0, late, 0))
		return 2;
	pthread_join(b, 0);
	report("main again", "main");
	return 0;
}
