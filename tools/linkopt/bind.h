/* Direct-binding decisions: for each dynamic symbol of an object, which
 * DT_NEEDED library defines it, or why it must take the standard path. */
#ifndef LINKOPT_BIND_H
#define LINKOPT_BIND_H

#include "qbtable.h"
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

/* The definitions of names in the objects [first, end) of a closure, in
 * closure order (by object, then symbol index), as a defmap over those
 * objects would chain them; found through the run's symbol index
 * (objcache.h), so a lookup costs what the name's definitions cost, not
 * what the closure holds. */
struct defref { uint32_t lib, sym; };
struct defscope {
	const struct closure *c;
	unsigned first, end;
	int32_t *at;          /* object serial -> closure index, -1 */
	uint32_t nat;
	int32_t *runat;       /* closure index -> its run in a long list (order_defs) */
	int use_map;          /* an object without one: a defmap of the range */
	struct defmap map;
	struct defref *buf;
	size_t cap;
};
int defscope_init(struct defscope *s, const struct closure *c, unsigned first, unsigned end);
/* The number of definitions of name, *out (valid until the next find)
 * listing them; -1 when out of memory. */
int defscope_find(struct defscope *s, const char *name, const struct defref **out);
void defscope_free(struct defscope *s);
/* The symbol table identity of a closure's object (computed once per
 * object of the run). */
uint64_t lib_symtab_id(const struct lib *l);

int interposed(const struct bind_opts *o, const char *name);
/* The pieces of the loader's standard lookup, on linkopt's reading of
 * the objects: is symbol i of e a definition it accepts for a reference
 * requiring need; the symbols e's relocations name (malloc'd flags, one
 * a symbol); symbol i as a named reference (*s its entry, *need its
 * version need); could the C library's large-file fallback take name;
 * the definitions of name in m (*oom set when out of memory). */
int lookup_accepts(const struct elf *e, uint32_t i, const struct qb_verreq *need);
unsigned char *referenced(const struct elf *e);
int named_ref(const struct elf *e, uint32_t i, Elf64_Sym *s, struct qb_verreq *req,
	const struct qb_verreq **need);
int lfs64_form(const char *name);
unsigned find_defs(struct defscope *m, const char *name, const struct defref **d, int *oom);
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
