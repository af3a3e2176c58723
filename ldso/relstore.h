/* The store of a relocated word, in one place: the core's apply
 * (reloc.c) and the runs an extension binds (ldso/ext/hintloop.c) write
 * a symbolic word relocation's place through it. */
#ifndef QB_RELSTORE_H
#define QB_RELSTORE_H

#include <stddef.h>

/* where gets val plus addend: RELA's entry addend; for REL, what the
 * place held for a word relocation, 0 for a GOT or PLT slot. */
static inline __attribute__((always_inline)) void qb_reloc_store(size_t *where, size_t val,
	size_t addend)
{
	*where = val + addend;
}

#endif
