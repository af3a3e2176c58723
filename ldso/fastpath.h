/* The hot part of the fast paths, inlined into the relocation loop: a
 * reference whose definition linkopt recorded, in a library that is still
 * the one linkopt saw, and that no interposer may define, is bound
 * without a lookup. Everything else goes through ldso/fastpath.c. */
#ifndef QB_FASTPATH_H
#define QB_FASTPATH_H

#include "ldso.h"

#define QB_BLOOM_BITS (8 * sizeof(size_t))

static inline size_t qb_ibloom_bit2(uint32_t h)
{
	return (h >> 16 ^ h << 5) & qb.ibloom_mask;
}

/* May one of the interposers export a name with GNU hash h? */
static inline int qb_ibloom_maybe(uint32_t h)
{
	size_t b1 = h & qb.ibloom_mask, b2 = qb_ibloom_bit2(h);
	return (qb.ibloom[b1 / QB_BLOOM_BITS] >> (b1 % QB_BLOOM_BITS) & 1) &&
	       (qb.ibloom[b2 / QB_BLOOM_BITS] >> (b2 % QB_BLOOM_BITS) & 1);
}

/* Bind reference symi of p through its definition hint; 0 when the
 * general path must decide (no hint, stale target, possible interposer,
 * a no-direct definition, or diagnostics that want every decision). */
static inline int qb_bind_hinted(struct dso *p, size_t symi, struct symdef *out)
{
	const Syminfo *si = &p->syminfo[symi];
	size_t to = si->si_boundto;
	if (!(si->si_flags & SYMINFO_FLG_DIRECT) || to >= p->nby_dynidx || !p->hint_ok[to] ||
	    !p->pre_gnu || qb.verify || (qb.debug & (QB_DBG_BINDINGS | QB_DBG_DIRECT)))
		return 0;
	struct dso *t = p->by_dynidx[to];
	uint32_t hint = p->hints[symi];
	if (!hint || hint >= t->nsyms || !t->syms[hint].st_shndx)
		return 0;
	if (qb.ninterposers && qb_ibloom_maybe(p->pre_gnu[symi]))
		return 0;
	if (t->syminfo && (t->syminfo[hint].si_flags & SYMINFO_FLG_NOEXTDIRECT))
		return 0;
	out->sym = t->syms + hint;
	out->dso = t;
	qb.stats.direct_hits++;
	qb.stats.hinted++;
	qb.stats.prehashed++;
	qb.stats.lookups++;
	return 1;
}

#endif
