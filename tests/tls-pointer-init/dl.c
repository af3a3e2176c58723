/* tls-pointer-init: a dlopened library whose .tdata holds relative and
 * symbolic addresses (dl_global preemptible, puts and lib_global in other
 * objects). report() checks the calling thread's copy
 * (ds is "dlstr" until the thread changes it). */
#include <stdio.h>
#include <string.h>
extern int lib_global;
int dl_global = 11;
static __thread const char *ds = "dlstr";
__thread int *dsym = &dl_global;
__thread int (*dputs)(const char *) = puts;
__thread int *dext = &lib_global;
static __thread int dzero[4];

void report(const char *who, const char *expect)
{
	int ok = !strcmp(ds, expect) && dsym == &dl_global && *dsym == 11 &&
		dputs == puts && dext == &lib_global && *dext == 7 &&
		!dzero[0] && dzero[3] == !!strcmp(expect, "dlstr");
	printf("%s: dl %s %s %d %d\n", who, ok ? "ok" : "BAD", ds, *dsym, *dext);
	/* this thread's copy is its own */
	ds = who;
	dzero[3] = 1;
}
