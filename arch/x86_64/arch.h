/* x86_64 facts the generic loader needs: ELF class, machine, relocation
 * types mapped onto the generic kinds of ldso/relkind.h, TLS layout. */
#ifndef QB_ARCH_H
#define QB_ARCH_H

#include <elf.h>
#include "relkind.h"

#define QB_ARCH_NAME "x86_64"
#define QB_ELFCLASS ELFCLASS64
#define QB_MACHINE EM_X86_64
#define QB_LDSO_NAME "ld-quickbind-x86_64.so.1"
#define QB_USE_RELA 1
/* TLS variant II: the static blocks sit below the thread pointer, a
 * module's at tp - tls.offset. ldso/tls.c and reloc.c implement this
 * variant only and refuse to build for another. */
#define QB_TLS_VARIANT 2
#define QB_DTP_OFFSET 0

#define QB_R_TYPE(info) ((uint32_t)((info) & 0xffffffff))
#define QB_R_SYM(info) ((uint32_t)((info) >> 32))

/* The thread descriptor: %fs:0 holds its own address. */
static inline void *qb_thread_self(void)
{
	void *td;
	__asm__("mov %%fs:0,%0" : "=r"(td));
	return td;
}

/* valgrind's client-request preamble: rotations of %rdi that leave it
 * as it was, then xchg %rbx,%rbx; a no-op on a processor, a request
 * (its address in %rax, the answer in %rdx) under valgrind. */
#define QB_VALGRIND_REQUEST "rolq $3,%%rdi; rolq $13,%%rdi; rolq $61,%%rdi; rolq $51,%%rdi; xchgq %%rbx,%%rbx"

static inline int qb_rel_kind(unsigned type)
{
	switch (type) {
	case R_X86_64_NONE: return RK_NONE;
	case R_X86_64_64: return RK_WORD;
	case R_X86_64_PC32: return RK_PC32;
	case R_X86_64_PC64: return RK_PCWORD;
	case R_X86_64_32: return RK_ABS32U;
	case R_X86_64_32S: return RK_ABS32S;
	case R_X86_64_GLOB_DAT: return RK_GOT;
	case R_X86_64_JUMP_SLOT: return RK_PLT;
	case R_X86_64_RELATIVE: return RK_RELATIVE;
	case R_X86_64_COPY: return RK_COPY;
	case R_X86_64_IRELATIVE: return RK_IRELATIVE;
	case R_X86_64_DTPMOD64: return RK_DTPMOD;
	case R_X86_64_DTPOFF64: return RK_DTPOFF;
	case R_X86_64_TPOFF64: return RK_TPOFF;
	case R_X86_64_TLSDESC: return RK_TLSDESC;
	default: return RK_UNKNOWN;
	}
}

#endif
