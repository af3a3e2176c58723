/* Direct-binding decisions: for each dynamic symbol of an object, which
 * DT_NEEDED library defines it, or why it must take the standard path. */
#ifndef LINKOPT_BIND_H
#define LINKOPT_BIND_H

#include "search.h"

struct defnode {
	const char *name;
	uint32_t hash;
	uint32_t lib, sym;
	uint32_t next;        /* index+1 of the next definition of the same name */
};

struct defmap {
	uint32_t *slots;      /* index+1 into nodes of the first definition of a name */
	size_t mask;
	struct defnode *nodes;
	size_t n, cap;
};

struct bind_opts {
	const char **interpose;  /* sorted list of names (--interpose-list) */
	size_t ninterpose;
	int nodirect;            /* --nodirect: flag the object's own definitions */
	int verbose;             /* -v: say which bindings a program's load order forbids */
};

struct syminfo { uint16_t boundto, flags; };

int symbol_exported(const struct elf *e, uint32_t i);
int defmap_build(struct defmap *m, const struct closure *c, unsigned first_lib);
/* The same over libs [first_lib, end_lib). */
int defmap_build_range(struct defmap *m, const struct closure *c, unsigned first_lib, unsigned end_lib);
const struct defnode *defmap_find(const struct defmap *m, const char *name);
void defmap_free(struct defmap *m);
int interposed(const struct bind_opts *o, const char *name);
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
