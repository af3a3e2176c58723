/* The relocation matrix's run-time checks: every cell compares the value a
 * relocation left in its place with the value computed another way, and
 * prints one line, "THREAD ROLE CELL: ok" or "...: BAD got G want W". */
#ifndef MX_H
#define MX_H

#define MXCAT2(a, b) a##b
#define MXCAT(a, b) MXCAT2(a, b)
#define P(x) MXCAT(PFX, x)
#define MXSTR2(x) #x
#define MXSTR(x) MXSTR2(x)
#define MX_HIDDEN __attribute__((visibility("hidden")))

#ifndef __ASSEMBLER__
#include <stdint.h>
#include <stdio.h>

/* libmxt.so, needed by every object: the targets of symbolic relocations,
 * and their addresses as libmxt itself sees them (through its own GOT:
 * the canonical address, a program's copy or PLT entry included). */
enum { MXT_DATA, MXT_FUNC, MXT_CDATA };
#define MXT_FUNC_VAL 0x4242
#define MXI_IMPL_VAL 0x1f1f
extern int mxt_data[4], mxt_cdata[4];
/* one TLS array per access model, so that the linker cannot merge them */
enum { MXT_TLS, MXT_TLS_IE, MXT_TLS_DESC };
extern __thread int mxt_tls[4], mxt_tls_desc[4];
extern __thread int mxt_tls_ie[4] __attribute__((tls_model("initial-exec")));
int mxt_func(void);
int mxt_call(void);  /* only ever called: bound through its PLT slot */
uintptr_t mxt_addr(int which);
void *mxt_tls_addr(int which);
/* libmxi.so (cells musl's loader lacks): an IFUNC and its implementation */
int mxi_ifunc(void);
int mxi_call(void);  /* only ever called */
uintptr_t mxi_impl_addr(void);

static inline uintptr_t mx_tp(void)
{
	uintptr_t tp;
#ifdef __x86_64__
	__asm__("mov %%fs:0,%0" : "=r"(tp));
#else
	__asm__("mov %%gs:0,%0" : "=r"(tp));
#endif
	return tp;
}

static inline void mx_report(const char *thread, const char *role, const char *cell,
	uintptr_t got, uintptr_t want)
{
	if (got == want)
		printf("%s %s %s: ok\n", thread, role, cell);
	else
		printf("%s %s %s: BAD got %#lx want %#lx\n", thread, role, cell,
			(unsigned long)got, (unsigned long)want);
}

#endif /* __ASSEMBLER__ */
#endif
