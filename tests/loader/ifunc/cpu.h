/* Resolvers run while the loader relocates, before libc is usable: they
 * may only use what needs no libc and no relocation, such as cpuid. */
#ifndef IFUNC_CPU_H
#define IFUNC_CPU_H
#include <cpuid.h>
static inline int cpu_has_avx2(void)
{
	unsigned a, b, c, d;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5));
}
static inline int cpu_has_sse42(void)
{
	unsigned a, b, c, d;
	return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 20));
}
#endif
