/* dlclose of a library still in use (../shared/repro/dl): what the
 * program holds from it keeps it loaded, as under glibc and musl; what
 * only a handle held goes with the handle. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *loaded(const char *lib)
{
	return dlopen(lib, RTLD_NOW | RTLD_NOLOAD) ? "yes" : "no";
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *mode = argv[1], *lib = argv[2];
	int global = !strcmp(mode, "default");
	void *h = dlopen(lib, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	if (!strcmp(mode, "default")) {
		/* glibc records a dependency of the caller on the definition */
		int (*f)(int) = (int (*)(int))dlsym(RTLD_DEFAULT, "lib_fn");
		printf("before: %d\n", f(1));
		fflush(stdout);
		dlclose(h);
		printf("after dlclose: %d\n", f(1));
	} else if (!strcmp(mode, "handle")) {
		int (*f)(int) = (int (*)(int))dlsym(h, "lib_fn");
		printf("through the handle: %d\n", f(1));
		dlclose(h);
	} else if (!strcmp(mode, "atfork")) {
		dlclose(h);
		printf("closed, forking\n");
		fflush(stdout);
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		int st;
		waitpid(p, &st, 0);
		printf("fork ok\n");
	} else if (!strcmp(mode, "exit")) {
		dlclose(h);
	} else {
		return 2;
	}
	printf("%s loaded after dlclose: %s\n", lib, loaded(lib));
	fflush(stdout);
	return 0;
}
