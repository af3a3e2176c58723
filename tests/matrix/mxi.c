/* libmxi.so: an IFUNC for the matrix's cells that musl's loader lacks. */
#include "mx.h"

int mxi_impl(void)
{
	return MXI_IMPL_VAL;
}

static int (*mxi_resolve(void))(void)
{
	return mxi_impl;
}

int mxi_ifunc(void) __attribute__((ifunc("mxi_resolve")));
int mxi_call(void) __attribute__((ifunc("mxi_resolve")));

uintptr_t mxi_impl_addr(void)
{
	return (uintptr_t)mxi_impl;
}
