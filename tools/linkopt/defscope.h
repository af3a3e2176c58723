/* The definitions of a name in the objects of a closure, in closure order
 * (defscope.c): what every lookup of linkopt's goes through. */
#ifndef LINKOPT_DEFSCOPE_H
#define LINKOPT_DEFSCOPE_H

#include <stddef.h>
#include <stdint.h>

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
/* The definitions of name in m, as defscope_find; a lookup that runs out
 * of memory finds none and sets *oom. */
unsigned find_defs(struct defscope *m, const char *name, const struct defref **d, int *oom);

#endif
