/* The start-up global scope's definitions in one table keyed by GNU hash
 * (globaltab.c); lookup.c searches it in place of the object-by-object
 * walk over those objects. */
#ifndef QB_GLOBALTAB_H
#define QB_GLOBALTAB_H

#include "ldso.h"

/* An entry: a symbol's GNU hash and where it is, order << QB_GT_SYMBITS |
 * symbol index; order is the object's position in the global scope. */
#define QB_GT_SYMBITS 20
#define QB_GT_MAXORDER ((uint32_t)1 << (32 - QB_GT_SYMBITS))
struct qb_gt_ent {
	uint32_t h, ref;
};

struct qb_gtab {
	int state;                    /* 0: not decided yet; 1: in use; -1: not used */
	uint32_t mask;                /* slots - 1 */
	uint32_t *start;              /* slot k: entries start[k] .. start[k+1]-1 */
	struct qb_gt_ent *ent;        /* in each slot: by order, then symbol index */
	struct dso **obj;             /* the covered objects, by order */
	uint32_t nobj, nent;
	struct dso *last;             /* last covered object: later ones are walked */
	struct dso **walk;            /* covered objects not in the table, ... */
	uint32_t *walk_order, nwalk;  /* ... and their orders, ascending */
	size_t bytes;                 /* memory the table keeps */
};

extern struct qb_gtab qb_gtab hidden;

/* Decide (once, at the first lookup) whether the table pays and build it;
 * 1 when it is in use. */
hidden int qb_gtab_build(void);

/* The object and symbol (*sym) of the first entry with GNU hash h in
 * scope order, with every object before it that the table could not
 * take ruling the hash out by its bloom filter; 0 when there is no such
 * entry or an object before it may hold the hash. (The first definition
 * of any name with hash h is there or later: a name is not compared.) */
hidden struct dso *qb_gtab_first(uint32_t h, uint32_t *sym);

static inline int qb_gtab_on(void)
{
	return qb_gtab.state > 0 || (qb_gtab.state == 0 && qb_gtab_build());
}

#endif
