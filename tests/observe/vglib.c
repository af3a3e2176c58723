/* valgrind's view of a library the loader maps: an uninitialised value
 * decides a branch here, and memory allocated here leaks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vg_branch(int x)
{
	int u;
	if (x > 0)
		u = 1;
	if (u == 1)
		puts("one");
	return 0;
}

char *vg_leak(void)
{
	char *p = malloc(23);
	strcpy(p, "leaked by the library");
	return p;
}
