/* lib_impl picks by cpu feature; lib_fixed always picks its second
 * candidate, so a loader that ignores the resolver cannot pass. The library
 * also calls its own IFUNC symbol (a PLT call to a GNU_IFUNC definition). */
#include "cpu.h"

static const char *impl_avx2(void) { return "lib avx2"; }
static const char *impl_generic(void) { return "lib generic"; }
static const char *(*resolve_impl(void))(void)
{
	return cpu_has_avx2() ? impl_avx2 : impl_generic;
}
const char *lib_impl(void) __attribute__((ifunc("resolve_impl")));

static int fixed_wrong(int x) { return -x; }
static int fixed_right(int x) { return x * 3; }
static int (*resolve_fixed(void))(int)
{
	return (void)fixed_wrong, fixed_right;
}
int lib_fixed(int x) __attribute__((ifunc("resolve_fixed")));

const char *lib_calls_impl(void) { return lib_impl(); }
const char *(*lib_impl_ptr(void))(void) { return lib_impl; }
