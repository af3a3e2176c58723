/* libqrfresh.so: the object `reopen` loads and unloads again and again.
 * Each kind of state a load starts with is here once: initialized data
 * the program changes, a pointer in writable data relocated to another
 * object, bss the program fills, a constructor's count and effect, and a
 * pointer in RELRO. report prints what it finds, then spoils all of it:
 * a reload that did not start afresh prints other values. */
#include <stdio.h>
#include <string.h>
#include "say.h"

extern int dep_value(void);
extern int dep_array[8];

int fresh_counter = 5;
int (*fresh_fp)(void) = dep_value;
int *fresh_dep_data = &dep_array[3];
static char fresh_bss[3 * 4096 + 100];
static int ctor_runs;
int *const fresh_relro = &fresh_counter;

__attribute__((constructor)) static void fresh_ctor(void)
{
	ctor_runs++;
	fresh_counter += 100;
}

/* The protection of the page holding addr, from /proc/self/maps. */
static void perms_of(const void *addr, char out[5])
{
	strcpy(out, "?");
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	while (f && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char p[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, p) == 3 && (unsigned long)addr >= lo &&
		    (unsigned long)addr < hi) {
			memcpy(out, p, 4);
			out[4] = 0;
		}
	}
	if (f)
		fclose(f);
}

void fresh_report(void)
{
	int nonzero = 0;
	for (size_t i = 0; i < sizeof fresh_bss; i++)
		nonzero += fresh_bss[i] != 0;
	char relro[5];
	perms_of(&fresh_relro, relro);
	say("fresh: counter %d ctors %d bss %d fp %d data %d relro %s %s\n", fresh_counter, ctor_runs,
	    nonzero, fresh_fp ? fresh_fp() : -1, fresh_dep_data ? *fresh_dep_data : -1,
	    *fresh_relro == fresh_counter ? "points" : "wrong", relro);
	memset(fresh_bss, 0x5a, sizeof fresh_bss);
	fresh_counter = -7;
	fresh_fp = 0;
	fresh_dep_data = 0;
	ctor_runs += 1000;
}
