#include <stdio.h>
#include <stdlib.h>

const char *top_fn(void);
const char *mid_fn(void);

__attribute__((constructor)) static void ctor(void) { printf("ctor program\n"); }
__attribute__((destructor)) static void dtor(void) { printf("dtor program\n"); }
static void at_exit(void) { printf("atexit handler\n"); }

int main(void)
{
	atexit(at_exit);
	printf("main: %s %s\n", top_fn(), mid_fn());
	return 0;
}
