/* The test every definition is put to, whichever path found it: the
 * standard lookup's walk (lookup.c) and the extensions that answer for
 * it (ldso/ext/) apply the same one, inlined where they need it. */
#ifndef QB_SYMTEST_H
#define QB_SYMTEST_H

#include <string.h>
#include "ldso.h"
#include "namehash.h"

/* Equality of the n bytes at a and b, n including a's terminator: both
 * ranges are known to be readable. Whole words, the last one overlapping
 * the one before. */
static inline int bytes_equal(const char *a, const char *b, size_t n)
{
	const size_t W = sizeof(size_t);
	size_t x, y;
	if (n < W) {
		while (n && *a == *b)
			a++, b++, n--;
		return !n;
	}
	for (size_t k = 0; k + W < n; k += W) {
		memcpy(&x, a + k, W);
		memcpy(&y, b + k, W);
		if (x != y)
			return 0;
	}
	memcpy(&x, a + n - W, W);
	memcpy(&y, b + n - W, W);
	return x == y;
}

/* The test itself: binding, type, definedness, name, version. Out of
 * line for the object walk, whose bloom and bucket checks must stay small
 * enough to be inlined in their loop. */
static inline __attribute__((always_inline)) int qb_candidate(struct dso *p, size_t i, const struct qb_symreq *r)
{
	const Sym *s = p->syms + i;
	if (!qb_def_accepted(s->st_shndx, s->st_info, s->st_value) || s->st_name >= p->dyn.strsz)
		return 0;
	qb.stats.strcmps++;
	/* with the name's length known (hashing found it), a comparison of
	 * that many bytes (terminator included) when they lie inside the
	 * string table; a precomputed hash leaves it unknown */
	if (r->nlen && r->nlen <= p->dyn.strsz - s->st_name ?
	    !bytes_equal(r->name, p->strings + s->st_name, r->nlen) :
	    !qb_names_equal(r->name, p->strings + s->st_name))
		return 0;
	if (!p->versym)
		return 1;
	uint16_t vs = p->versym[i];
	const struct qb_verdef_ent *vd = 0;
	if ((size_t)(vs & 0x7fff) < p->nvdefs && p->vdefs[vs & 0x7fff].name)
		vd = &p->vdefs[vs & 0x7fff];
	return qb_version_match(vs, 1, vd, r->ver);
}

#endif
