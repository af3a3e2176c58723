/* A signal handler installed by a plugin outlives its dlclose. */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("./libksigplugin.so", RTLD_NOW);
	if (!h) {
		puts(dlerror());
		return 1;
	}
	((void (*)(void))dlsym(h, "plugin_init"))();
	printf("dlclose %d\n", dlclose(h));
	for (int i = 0; i < 3; i++) {
		char n[32];
		snprintf(n, sizeof n, "./libkother%d.so", i);
		void *o = dlopen(n, RTLD_NOW);
		if (o)
			dlclose(o);
	}
	fflush(stdout);
	raise(SIGUSR1);
	puts("handler returned");
	return 0;
}
