/* Direct-binding decisions: for each dynamic symbol of an object, which
 * DT_NEEDED library defines it, or why it must take the standard path. */
#ifndef LINKOPT_BIND_H
#define LINKOPT_BIND_H

#include "defscope.h"
#include "qbtable.h"
#include "search.h"

struct bind_opts {
	const char **interpose;  /* sorted list of names (--interpose-list) */
	size_t ninterpose;
	int nodirect;            /* --nodirect: flag the object's own definitions */
	int verbose;             /* -v: say which bindings a program's load order forbids */
};

struct syminfo { uint16_t boundto, flags; };

int interposed(const struct bind_opts *o, const char *name);
/* The pieces of the loader's standard lookup, on linkopt's reading of
 * the objects: is symbol i of e a definition it accepts for a reference
 * requiring need; the symbols e's relocations name (malloc'd flags, one
 * a symbol); symbol i as a named reference (*s its entry, *need its
 * version need); could the C library's large-file fallback take name. */
int lookup_accepts(const struct elf *e, uint32_t i, const struct qb_verreq *need);
unsigned char *referenced(const struct elf *e);
int named_ref(const struct elf *e, uint32_t i, Elf64_Sym *s, struct qb_verreq *req,
	const struct qb_verreq **need);
int lfs64_form(const char *name);
int vague_name(const char *name);

/* For a symbol the object's relocations reference and that is not bound
 * directly: the definition the standard lookup finds in the start-up load
 * of the first program given that loads the object (docs/FORMAT.md 2.4),
 * as the definer's identity (0: the object itself) and the symbol's index
 * there; sym == 0: none recorded. */
struct scope_def {
	uint64_t id;
	uint32_t sym;
};

/* si[nsyms] receives the table for c->libs[0]. */
/* hint (may be NULL) receives, for each directly bound symbol, the index
 * of its definition in the target library; sd (may be NULL) the scope
 * definitions. */
int bind_compute(const struct closure *c, const struct bind_opts *o, struct syminfo *si,
	uint32_t *hint, struct scope_def *sd);

#endif
