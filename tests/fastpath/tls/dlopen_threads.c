/* Dynamic TLS: libt2 (general dynamic, __tls_get_addr) and libt3 (TLS
 * descriptors) are dlopened while threads already run, so their
 * accesses to libt1's variables go through the dynamic TLS paths. Each
 * thread sets its own value and reads it back through every library. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define N 4
static void (*t2_set)(int);
static int (*t2_get)(void), (*t3_get)(void), (*t1_get)(void);
static pthread_barrier_t loaded;
static int res[N][3];

static void *work(void *arg)
{
	int i = (int)(long)arg;
	pthread_barrier_wait(&loaded);
	t2_set(i * 5 + 1);
	res[i][0] = t1_get();
	res[i][1] = t2_get();
	res[i][2] = t3_get();
	return 0;
}

int main(void)
{
	pthread_t t[N];
	pthread_barrier_init(&loaded, 0, N + 1);
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], 0, work, (void *)i);
	void *h2 = dlopen("libt2.so", RTLD_NOW);
	void *h3 = dlopen("libt3.so", RTLD_NOW | RTLD_GLOBAL);
	if (!h2 || !h3) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	t2_set = (void (*)(int))dlsym(h2, "t2_set");
	t2_get = (int (*)(void))dlsym(h2, "t2_get");
	t3_get = (int (*)(void))dlsym(h3, "t3_get");
	t1_get = (int (*)(void))dlsym(h2, "t1_get");
	if (!t2_set || !t2_get || !t3_get || !t1_get) {
		printf("dlsym: %s\n", dlerror());
		return 1;
	}
	pthread_barrier_wait(&loaded);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], 0);
	for (int i = 0; i < N; i++)
		printf("thread %d: %d %d %d\n", i, res[i][0], res[i][1], res[i][2]);
	printf("main: %d %d %d\n", t1_get(), t2_get(), t3_get());
	return 0;
}
