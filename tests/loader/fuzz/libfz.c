/* A library with a little of everything the loader interprets: data
 * relocations, PLT calls into libc, a weak and a versioned symbol, TLS
 * (general-dynamic), an IFUNC, constructors. The fuzz suite mutates it. */
#include <stdio.h>
#include <string.h>

__thread int fz_tls = 3;
int fz_counter = 1;
int *fz_ptrs[4] = { &fz_counter, &fz_counter, 0, &fz_counter };
const char *fz_names[3] = { "one", "two", "three" };

__attribute__((weak)) int fz_weak(void) { return 4; }

static int impl(void) { return 5; }
static int (*pick(void))(void) { return impl; }
int fz_ifunc(void) __attribute__((ifunc("pick")));

int fz_old(void) { return 6; }
__asm__(".symver fz_old,fz_ver@FZ_1");

__attribute__((constructor)) static void ctor(void) { fz_counter++; }

int fz_sum(void)
{
	return fz_counter + *fz_ptrs[0] + fz_tls + fz_weak() + fz_ifunc() + (int)strlen(fz_names[2]);
}
