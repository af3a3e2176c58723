/* The hot part of the fast paths, inlined into the relocation loop: a
 * reference whose definition linkopt recorded, in a library that is still
 * the one linkopt saw, and that no interposer may define, is bound
 * without a lookup. Everything else goes through ldso/fastpath.c. */
#ifndef QB_FASTPATH_H
#define QB_FASTPATH_H

#include "ldso.h"

/* A direct target as the hinted relocation loop (fastpath.c) reads it: hints in [lo, lo + n) index both its
 * symbol table and its GNU hash chain (n == 0: not a target). */
struct qb_fast_tgt {
	const uint32_t *chain;
	const Sym *syms;
	size_t base;
	uint32_t lo, n;
	uint32_t ip_def[2];  /* definitions an interposer may take (0: none) */
};

#define QB_BLOOM_BITS (8 * sizeof(size_t))

/* The filter's two bits for a GNU hash value: the hash's low bits barely
 * mix (h * 33 + c keeps the low bits a sum of the characters), so each
 * bit comes from the middle of a product; at most 2^16 bits. */
static inline size_t qb_ibloom_bit(uint32_t h, uint32_t k, size_t mask)
{
	return (size_t)((h * k) >> 16) & mask;
}
#define QB_IBLOOM_K1 0x9e3779b1u
#define QB_IBLOOM_K2 0x85ebca6bu

static inline int qb_ibloom_test(const size_t *bloom, size_t mask, uint32_t h)
{
	size_t b1 = qb_ibloom_bit(h, QB_IBLOOM_K1, mask);
	size_t w = bloom[b1 / QB_BLOOM_BITS];
	if (!(w >> (b1 % QB_BLOOM_BITS) & 1))
		return 0;
	size_t b2 = qb_ibloom_bit(h, QB_IBLOOM_K2, mask);
	w = bloom[b2 / QB_BLOOM_BITS];
	return w >> (b2 % QB_BLOOM_BITS) & 1;
}

/* May one of the interposers export a name with GNU hash h? */
static inline int qb_ibloom_maybe(uint32_t h)
{
	return qb_ibloom_test(qb.ibloom, qb.ibloom_mask, h);
}

/* The definition linkopt recorded for reference symi of p in target t,
 * when it can be trusted: t is the library linkopt saw (checked by the
 * caller through hint_ok), and t holds, for that symbol, the hash of the
 * referenced name: in its GNU hash chain, or, for a DT_HASH-only target,
 * in its own table of SysV hash values. */
static inline Sym *qb_hint_def(struct dso *p, size_t symi, struct dso *t)
{
	uint32_t hint = p->hints[symi];
	if (!hint || hint >= t->nsyms || !p->pre_gnu || !t->syms[hint].st_shndx)
		return 0;
	if (t->gh_bloom) {
		if (hint < t->gh_symoffset || (t->gh_chain[hint] | 1) != (p->pre_gnu[symi] | 1))
			return 0;
	} else if (!t->pre_sysv || !p->pre_sysv || t->pre_sysv[hint] != p->pre_sysv[symi]) {
		return 0;
	}
	return t->syms + hint;
}

/* Bind reference symi of p through its definition hint; 0 when the
 * general path must decide (no hint, stale target, possible interposer,
 * a no-direct definition, or diagnostics that want every decision). */
static inline __attribute__((always_inline)) int qb_bind_hinted(struct dso *p, size_t symi, struct symdef *out)
{
	const Syminfo *si = &p->syminfo[symi];
	size_t to = si->si_boundto;
	if (!(si->si_flags & SYMINFO_FLG_DIRECT) || to >= p->nby_dynidx || !p->hint_ok[to] ||
	    !p->pre_gnu || qb.verify || (qb.debug & (QB_DBG_BINDINGS | QB_DBG_DIRECT)))
		return 0;
	struct dso *t = p->by_dynidx[to];
	Sym *s = qb_hint_def(p, symi, t);
	if (!s || (qb.ninterposers && qb_ibloom_maybe(p->pre_gnu[symi])))
		return 0;
	if (t->syminfo && (t->syminfo[s - t->syms].si_flags & SYMINFO_FLG_NOEXTDIRECT))
		return 0;
	out->sym = s;
	out->dso = t;
	/* also a direct hit, a lookup and a precomputed hash: qb_debug_stats
	 * adds it to those counts */
	qb.stats.hinted_fast++;
	return 1;
}

#endif
