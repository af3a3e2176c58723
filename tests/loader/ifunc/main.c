#include <stdio.h>
#include "cpu.h"

const char *lib_impl(void);
int lib_fixed(int x);
const char *lib_calls_impl(void);
const char *(*lib_impl_ptr(void))(void);

static unsigned sum_sse42(unsigned x) { return x + 42; }
static unsigned sum_plain(unsigned x) { return x + 1; }
static unsigned (*resolve_sum(void))(unsigned)
{
	return cpu_has_sse42() ? sum_sse42 : sum_plain;
}
unsigned exe_sum(unsigned x) __attribute__((ifunc("resolve_sum")));

/* A data reference to an IFUNC: the pointer must be the chosen function. */
static unsigned (*const sum_ptr)(unsigned) = exe_sum;

int main(void)
{
	printf("lib_impl: %s\n", lib_impl());
	printf("lib_calls_impl: %s\n", lib_calls_impl());
	printf("lib_fixed(5): %d\n", lib_fixed(5));
	printf("exe_sum(1): %u via pointer: %u\n", exe_sum(1), sum_ptr(1));
	printf("lib pointer == exe pointer: %d\n", lib_impl_ptr() == lib_impl);
	printf("cpu: avx2=%d sse4.2=%d\n", cpu_has_avx2(), cpu_has_sse42());
	return 0;
}
