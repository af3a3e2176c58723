/* i386 facts the generic loader needs: ELF class, machine, relocation
 * types mapped onto the generic kinds of ldso/relkind.h, TLS layout.
 * i386 uses REL: addends live in the relocated words. */
#ifndef QB_ARCH_H
#define QB_ARCH_H

#include <elf.h>
#include "relkind.h"

#define QB_ARCH_NAME "i386"
#define QB_ELFCLASS ELFCLASS32
#define QB_MACHINE EM_386
#define QB_LDSO_NAME "ld-quickbind-i386.so.1"
#define QB_USE_RELA 0
/* TLS variant II: the static blocks sit below the thread pointer (%gs:0),
 * a module's at tp - tls.offset. ldso/tls.c and reloc.c implement this
 * variant only and refuse to build for another. */
#define QB_TLS_VARIANT 2
#define QB_DTP_OFFSET 0
/* A REL R_386_TLS_DESC keeps its addend in the descriptor's second word
 * (the first is the resolver's address). */
#define QB_REL_TLSDESC_ADDEND_WORD 1

#define QB_R_TYPE(info) ((uint32_t)((info) & 0xff))
#define QB_R_SYM(info) ((uint32_t)((info) >> 8))

/* The thread descriptor: %gs:0 holds its own address (musl sets %gs up
 * through set_thread_area). */
static inline void *qb_thread_self(void)
{
	void *td;
	__asm__("mov %%gs:0,%0" : "=r"(td));
	return td;
}

/* R_386_TLS_TPOFF32 stores the symbol's offset below the thread pointer
 * as a positive number, with the addend added, not negated. */
#define QB_TPOFF_ARCH_NAME "tpoff32"

/* valgrind's client-request preamble: rotations of %edi that leave it
 * as it was, then xchg %ebx,%ebx; a no-op on a processor, a request
 * (its address in %eax, the answer in %edx) under valgrind. */
#define QB_VALGRIND_REQUEST "roll $3,%%edi; roll $13,%%edi; roll $29,%%edi; roll $19,%%edi; xchgl %%ebx,%%ebx"

static inline size_t qb_arch_tpoff(size_t block_offset, size_t value, size_t addend)
{
	return block_offset - value + addend;
}

static inline int qb_rel_kind(unsigned type)
{
	switch (type) {
	case R_386_NONE: return RK_NONE;
	case R_386_32: return RK_WORD;
	case R_386_PC32: return RK_PC32;
	case R_386_GLOB_DAT: return RK_GOT;
	case R_386_JMP_SLOT: return RK_PLT;
	case R_386_RELATIVE: return RK_RELATIVE;
	case R_386_COPY: return RK_COPY;
	case R_386_IRELATIVE: return RK_IRELATIVE;
	case R_386_TLS_DTPMOD32: return RK_DTPMOD;
	case R_386_TLS_DTPOFF32: return RK_DTPOFF;
	case R_386_TLS_TPOFF: return RK_TPOFF;
	case R_386_TLS_TPOFF32: return RK_TPOFF_ARCH;
	case R_386_TLS_DESC: return RK_TLSDESC;
	default: return RK_UNKNOWN;
	}
}

/* The valued and record modes over a REL table in assembly
 * (arch/i386/relstate.c) */
struct qb_prepared;
struct dso;
#define QB_REL_ARCH qb_rel_arch
__attribute__((visibility("hidden"))) const size_t *qb_rel_arch(int mode, const struct qb_prepared *s,
	const struct dso *p, size_t lo, size_t span, const size_t *r, const size_t *end);

#endif
