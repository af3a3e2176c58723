/* The relocation matrix's program (ROLE pie or exe): checks its own cells,
 * those of a library needed at start and of two dlopened ones (RTLD_LOCAL,
 * RTLD_GLOBAL), in the main thread, in a thread created before the
 * dlopens and in one created after. */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

typedef void (*check_fn)(const char *, const char *);
void p_check(const char *thread, const char *role);
void n_check(const char *thread, const char *role);
static check_fn local_check, global_check;
static sem_t go, done;

static void check_all(const char *thread)
{
	p_check(thread, ROLE);
	n_check(thread, "needed");
	local_check(thread, "dlopen-local");
	global_check(thread, "dlopen-global");
}

static void *early(void *arg)
{
	(void)arg;
	sem_wait(&go);
	check_all("early");
	sem_post(&done);
	return 0;
}

static void *late(void *arg)
{
	(void)arg;
	check_all("late");
	return 0;
}

int main(void)
{
	pthread_t a, b;
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	if (pthread_create(&a, 0, early, 0))
		return 2;
	void *hl = dlopen("./libmxl.so", RTLD_NOW | RTLD_LOCAL);
	void *hg = dlopen("./libmxg.so", RTLD_NOW | RTLD_GLOBAL);
	if (!hl || !hg) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	local_check = (check_fn)dlsym(hl, "l_check");
	global_check = (check_fn)dlsym(hg, "g_check");
	if (!local_check || !global_check) {
		printf("dlsym: %s\n", dlerror());
		return 1;
	}
	check_all("main");
	sem_post(&go);
	sem_wait(&done);
	pthread_join(a, 0);
	if (pthread_create(&b, 0, late, 0))
		return 2;
	pthread_join(b, 0);
	return 0;
}
