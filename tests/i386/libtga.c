#include "tls.h"

__thread int lib_gd = 5;
__thread char lib_gd_buf[64] = "initial image";
__thread int lib_ie = 17;
/* Only reached through @gottpoff below: R_386_TLS_TPOFF32. */
__thread int lib_tp32 = 23;

int *tga_gd_addr(void) { return &lib_gd; }
char *tga_buf(void) { return lib_gd_buf; }

int *tga_ie_addr(void)
{
	extern __thread int lib_ie __attribute__((tls_model("initial-exec")));
	return &lib_ie;
}

/* The Sun form of initial exec: the GOT holds the positive offset below
 * the thread pointer, relocated by R_386_TLS_TPOFF32. */
int *tga_tpoff32_addr(void)
{
	int *r;
	int got;
	__asm__("call 1f\n"
		"1:\tpopl %1\n\t"
		"addl $_GLOBAL_OFFSET_TABLE_+[.-1b], %1\n\t"
		"movl %%gs:0, %0\n\t"
		"subl lib_tp32@gottpoff(%1), %0"
		: "=r"(r), "=&r"(got));
	return r;
}

int tga_tp32_value(void) { return lib_tp32; }
