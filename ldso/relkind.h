/* Architecture-neutral relocation kinds. Each arch/<name>/arch.h maps its
 * relocation type numbers onto these; ldso/reloc.c only knows the kinds. */
#ifndef QB_RELKIND_H
#define QB_RELKIND_H

enum qb_relkind {
	RK_UNKNOWN,
	RK_NONE,
	RK_WORD,      /* S + A, pointer sized */
	RK_PC32,      /* S + A - P, 32 bits signed */
	RK_PCWORD,    /* S + A - P, pointer sized */
	RK_ABS32U,    /* S + A, must fit unsigned 32 bits */
	RK_ABS32S,    /* S + A, must fit signed 32 bits */
	RK_GOT,       /* S */
	RK_PLT,       /* S */
	RK_RELATIVE,  /* B + A */
	RK_COPY,
	RK_IRELATIVE, /* call (B + A) */
	RK_DTPMOD,
	RK_DTPOFF,
	RK_TPOFF,     /* offset from the thread pointer, as the arch counts it */
	RK_TPOFF_ARCH, /* a thread-pointer offset in a form of one arch's own:
	                * the arch.h that maps a type onto it defines
	                * QB_TPOFF_ARCH_NAME and qb_arch_tpoff() */
	RK_TLSDESC,
};

#endif
