/* A library exporting a weak memcpy, as a shared C++ runtime does: loaded
 * before libc, it is the definition the standard lookup finds for every
 * object of the program. */
#include <stddef.h>
int pp_copies;
__attribute__((weak)) void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;
	while (n--)
		*dp++ = *sp++;
	pp_copies++;
	return d;
}
int pp_copies_made(void)
{
	return pp_copies;
}
#ifdef EXTRA
/* a rebuilt library: another symbol table */
int pp_version(void)
{
	return 2;
}
#endif
