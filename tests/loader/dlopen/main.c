#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

typedef int (*bump_fn)(int);
typedef const char *(*text_fn)(int);

struct lib {
	const char *file;
	bump_fn bump;
	text_fn text;
	int *var;
};

static struct lib libs[2] = { { "libdyngd.so", 0, 0, 0 }, { "libdyndesc.so", 0, 0, 0 } };
static pthread_barrier_t ready;
static sem_t go[3];

/* Started before the libraries are loaded: needs fresh dynamic TLS. */
static void *early(void *arg)
{
	int id = *(int *)arg;
	char out[256] = "";
	pthread_barrier_wait(&ready);
	sem_wait(&go[id - 1]);
	for (int i = 0; i < 2; i++) {
		int v = libs[i].bump(id);
		size_t n = strlen(out);
		snprintf(out + n, sizeof out - n, " %s=%d,%s", libs[i].file, v, libs[i].text(id));
	}
	printf("thread %d:%s\n", id, out);
	return 0;
}

int main(void)
{
	pthread_t t[3];
	int ids[3] = { 1, 2, 3 };
	pthread_barrier_init(&ready, 0, 4);
	for (int i = 0; i < 3; i++)
		sem_init(&go[i], 0, 0);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], 0, early, &ids[i]);
	pthread_barrier_wait(&ready);
	for (int i = 0; i < 2; i++) {
		void *h = dlopen(libs[i].file, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			printf("dlopen %s: %s\n", libs[i].file, dlerror());
			return 1;
		}
		libs[i].bump = (bump_fn)dlsym(h, "dyn_bump");
		libs[i].text = (text_fn)dlsym(h, "dyn_text");
		libs[i].var = dlsym(h, "dyn_tls");
		printf("%s: bump(0)=%d var=%d text=%s\n", libs[i].file, libs[i].bump(0), *libs[i].var,
			libs[i].text(0));
	}
	/* One thread at a time, in order, so the output is deterministic. */
	for (int i = 0; i < 3; i++) {
		sem_post(&go[i]);
		pthread_join(t[i], 0);
	}
	printf("main after threads: %d %d\n", libs[0].bump(0), libs[1].bump(0));
	printf("missing: %s\n", dlopen("libnothere.so", RTLD_NOW) ? "loaded" : "error");
	return 0;
}
