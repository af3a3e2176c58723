/* Run set-uid: reports what the environment managed to change.
 * `secprog DIR` also dlopens DIR/sub/libqrorig.so, whose RUNPATH is
 * $ORIGIN/dep, by a relative path. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "say.h"

int main(int argc, char **argv)
{
	say("secure %lu\n", getauxval(AT_SECURE));
	say("preloaded marker %s\n", dlsym(RTLD_DEFAULT, "sec_marker_good_or_evil") ? "found" : "absent");
	void *h = dlopen("libqrsec.so", RTLD_NOW);
	const char *(*which)(void) = h ? (const char *(*)(void))dlsym(h, "sec_which") : 0;
	say("libqrsec.so %s\n", which ? which() : "not found");
	if (argc > 1) {
		if (chdir(argv[1]))
			return 3;
		void *o = dlopen("./sub/libqrorig.so", RTLD_NOW);
		say("relative $ORIGIN %s\n", o ? "followed" : "refused");
	}
	return 0;
}
