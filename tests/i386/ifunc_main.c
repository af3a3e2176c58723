#include <stdio.h>

int lib_ifn(int x);
int lib_calls_ifn(int x);
int (*lib_ifn_ptr(void))(int);

static unsigned plain(unsigned x) { return x + 1; }
static unsigned chosen(unsigned x) { return x + 42; }
static unsigned (*pick(void))(unsigned) { return (void)plain, chosen; }
unsigned exe_ifn(unsigned x) __attribute__((ifunc("pick")));
/* A data reference to an IFUNC: the pointer must be the chosen function. */
static unsigned (*const exe_ptr)(unsigned) = exe_ifn;

int main(void)
{
	printf("lib_ifn(5)=%d lib_calls_ifn(5)=%d\n", lib_ifn(5), lib_calls_ifn(5));
	printf("exe_ifn(1)=%u via pointer=%u\n", exe_ifn(1), exe_ptr(1));
	printf("lib pointer works: %d\n", lib_ifn_ptr()(7));
	return 0;
}
