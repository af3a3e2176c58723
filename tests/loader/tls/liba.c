/* General-dynamic TLS (the -fPIC default), an initial-exec variable inside a
 * library, and a 64-byte aligned block. */
#include "tls.h"

__thread int a_gd = 100;
static __thread int a_ie __attribute__((tls_model("initial-exec"))) = 7;
__thread char a_al64[24] __attribute__((aligned(64))) = "a-aligned-64";
__thread long a_shared = 5;

int *a_gd_addr(void) { return &a_gd; }
int *a_ie_addr(void) { return &a_ie; }
char *a_al64_addr(void) { return a_al64; }
long *a_shared_addr(void) { return &a_shared; }

#ifdef __i386__
/* Reached only by the Sun form of initial exec, whose GOT entry holds the
 * positive offset below the thread pointer (R_386_TLS_TPOFF32); x86_64 has
 * no such form. */
__thread int a_tp32 = 23;

int *a_tp32_addr(void)
{
	int *r;
	int got;
	__asm__("call 1f\n"
		"1:\tpopl %1\n\t"
		"addl $_GLOBAL_OFFSET_TABLE_+[.-1b], %1\n\t"
		"movl %%gs:0, %0\n\t"
		"subl a_tp32@gottpoff(%1), %0"
		: "=r"(r), "=&r"(got));
	return r;
}

int a_tp32_value(void) { return a_tp32; }
#endif
