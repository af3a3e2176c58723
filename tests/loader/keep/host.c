/* A plugin registers a pthread key destructor and sets a value in a
 * worker thread; the host closes the plugin, other modules come and go,
 * then the worker exits and the destructor runs. Under musl's dlclose
 * (the default) the plugin is still there; with LD_DLCLOSE=unload the
 * loader must keep it, since a key destructor has its code. */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static sem_t used, closed;
static void (*use)(void);

static void *worker(void *a)
{
	(void)a;
	use();
	sem_post(&used);
	sem_wait(&closed);
	return 0;
}

int main(void)
{
	void *h = dlopen("./libkplugin.so", RTLD_NOW);
	if (!h) {
		puts(dlerror());
		return 1;
	}
	((void (*)(void))dlsym(h, "plugin_init"))();
	use = (void (*)(void))dlsym(h, "plugin_use");
	sem_init(&used, 0, 0);
	sem_init(&closed, 0, 0);
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	sem_wait(&used);
	printf("dlclose %d\n", dlclose(h));
	for (int i = 0; i < 3; i++) {
		char n[32];
		snprintf(n, sizeof n, "./libkother%d.so", i);
		void *o = dlopen(n, RTLD_NOW);
		printf("%s %s\n", n, o ? "loaded" : dlerror());
		if (o)
			dlclose(o);
	}
	printf("worker exits\n");
	fflush(stdout);
	sem_post(&closed);
	pthread_join(t, 0);
	printf("joined\n");
	return 0;
}
