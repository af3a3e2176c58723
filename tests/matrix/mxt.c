/* libmxt.so: targets of the matrix's symbolic relocations, needed by every
 * matrix object. Its own references go through its GOT, so mxt_addr gives
 * the canonical address of each target whoever defines it in the end. */
#include "mx.h"

int mxt_data[4] = {1, 2, 3, 4};
int mxt_cdata[4] = {11, 22, 33, 44};
__thread int mxt_tls[4] = {5, 6, 7, 8};
__thread int mxt_tls_ie[4] = {15, 16, 17, 18};
__thread int mxt_tls_desc[4] = {25, 26, 27, 28};

int mxt_func(void)
{
	return MXT_FUNC_VAL;
}

int mxt_call(void)
{
	return MXT_FUNC_VAL + 1;
}

uintptr_t mxt_addr(int which)
{
	switch (which) {
	case MXT_DATA: return (uintptr_t)mxt_data;
	case MXT_FUNC: return (uintptr_t)mxt_func;
	case MXT_CDATA: return (uintptr_t)mxt_cdata;
	}
	return 0;
}

void *mxt_tls_addr(int which)
{
	switch (which) {
	case MXT_TLS: return mxt_tls;
	case MXT_TLS_IE: return mxt_tls_ie;
	case MXT_TLS_DESC: return mxt_tls_desc;
	}
	return 0;
}
