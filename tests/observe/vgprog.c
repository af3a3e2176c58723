/* A musl program for memcheck (tests/test_observe_tools.c): a leak and an
 * invalid write of its own, and a library's uninitialised branch and
 * leak; every frame must be named as under musl's loader. */
#include <stdio.h>
#include <stdlib.h>

int vg_branch(int x);
char *vg_leak(void);

int main(void)
{
	char *p = malloc(37);
	p[0] = 'x';
	p = malloc(10);
	p[10] = 1;
	vg_branch(0);
	p = vg_leak();
	printf("done %c\n", p[0]);
	return 0;
}
