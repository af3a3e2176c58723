/* The hinted relocation loop: an object's relocations whose definition
 * linkopt recorded (fastpath.h says what is decided before and what is
 * checked per relocation). The common case, no statistics and no bloom
 * filter to ask, runs the architecture's assembly version when it has
 * one (arch/<arch>/hintloop.asm, QB_HINT_LOOP in arch.h); this file holds
 * the C version of the same checks, which does the rest. Not part of the
 * fuzz targets: it only walks tables qb_fast_prepare accepted. */
#include <stddef.h>
#include "fast.h"

/* the layouts the assembly reads (arch/<arch>/consts.h) */
#define AT(t, f, off) (offsetof(struct t, f) == (off))
_Static_assert(sizeof(struct qb_fast_tgt) == QB_FT_SIZE && AT(qb_fast_tgt, chain, QB_FT_CHAIN) &&
	AT(qb_fast_tgt, syms, QB_FT_SYMS) && AT(qb_fast_tgt, base, QB_FT_BASE) &&
	AT(qb_fast_tgt, lo, QB_FT_LO) && AT(qb_fast_tgt, n, QB_FT_N) &&
	AT(qb_fast_tgt, ip_def[0], QB_FT_IP0) && AT(qb_fast_tgt, ip_def[1], QB_FT_IP1),
	"struct qb_fast_tgt is not laid out as consts.h says");
_Static_assert(AT(qb_hint_state, end, QB_HS_END) && AT(qb_hint_state, lo, QB_HS_LO) &&
	AT(qb_hint_state, span, QB_HS_SPAN) && AT(qb_hint_state, limit, QB_HS_LIMIT) &&
	AT(qb_hint_state, ntgt, QB_HS_NTGT) && AT(qb_hint_state, si, QB_HS_SI) &&
	AT(qb_hint_state, hints, QB_HS_HINTS) && AT(qb_hint_state, gnu, QB_HS_GNU) &&
	AT(qb_hint_state, tgt, QB_HS_TGT) && AT(qb_hint_state, base, QB_HS_BASE) &&
	AT(qb_hint_state, values, QB_HS_VALUES),
	"struct qb_hint_state is not laid out as consts.h says");

static struct qb_hint_state hs;

#if QB_HINT_LOOP_RELA || QB_HINT_LOOP_REL
hidden const size_t *qb_hint_loop_arch(const size_t *r, const struct qb_hint_state *s);
#endif
#if QB_VALUE_LOOP_REL
hidden const size_t *qb_value_loop_arch(const size_t *r, const struct qb_hint_state *s);
#endif

/* hs.info before any binding: a word relocation against symbol 0, whose
 * value the general path also takes as 0, so that a match binds it as
 * that path would. */
#define NO_INFO ((size_t)__builtin_ctzll(TYPE_MASK(IS_WORD)))

/* Bit position of the symbol index in r_info (32 or 8). */
#define SYM_SHIFT (8 * (int)sizeof(size_t) - __builtin_popcountll(QB_R_SYM(~(size_t)0)))

/* The symbolic types as a mask of 32 bits when they all fit (shifts of
 * one register on a 32-bit machine). */
#define SYM_TYPES TYPE_MASK(IS_SYM)
#define SYM_TYPE(t) (SYM_TYPES >> 32 ? (t) < 64 && (SYM_TYPES >> (t) & 1) : \
	(t) < 32 && ((uint32_t)SYM_TYPES >> (t) & 1))

/* The place of relocation r gets val: plus the addend (RELA), plus what
 * the place holds for a word relocation (REL), or val alone (GOT, PLT). */
static inline __attribute__((always_inline)) void put(size_t *where, size_t val, const size_t *r,
	const int rela, unsigned type)
{
	qb_reloc_store(where, val, rela ? r[2] : TYPE_MASK(IS_WORD) >> type & 1 ? *where : 0);
}

/* CAREFUL: the instances that also count, cache and ask the bloom
 * filter; VALUES: bind by the definitions' values linkopt recorded
 * (QB_TF_VALUES, docs/FORMAT.md 2.3) in place of the targets' symbol
 * tables. */
enum { CAREFUL = 4, VALUES = 8 };

/* Applies relocations from r on until one needs the general path or its
 * place is outside hs's writable range; returns that one (or hs.end). No
 * call inside: every register is the loop's. The careful instances also
 * count relocations by kind (LD_DEBUG=statistics), keep a symbol cache
 * (consecutive relocations against one symbol reuse its value; linkopt
 * groups them) unless LD_NOSYMCACHE, and ask the interposers' bloom
 * filter when p's targets need it. */
static inline __attribute__((always_inline)) const size_t *fast_run(const size_t *r,
	const int rela, const int flags)
{
	const int careful = flags & CAREFUL;
	const int stats = careful && (qb.debug & QB_DBG_STATS);
	const int ipdef = flags & (FAST_IPDEF | CAREFUL);
	const int interp = careful && hs.bloom;
	const int cache = careful && !qb.env.no_symcache;
	const size_t ent = rela ? 3 : 2;
	const Syminfo *const si = hs.si;
	const uint32_t *const hints = hs.hints, *const gnu = hs.gnu, *const values = hs.values;
	const struct qb_fast_tgt *const ft = hs.tgt;
	unsigned char *const base = hs.base;
	const size_t *const end = hs.end;
	const size_t lo = hs.lo, span = hs.span, limit = hs.limit, ntgt = hs.ntgt;
	size_t last_info = hs.info, last_val = hs.val;
	for (; r != end; r += ent) {
		size_t off = r[0], info = r[1];
		unsigned type = QB_R_TYPE(info);
		if (off - lo > span)
			break;
		size_t *where = (size_t *)(base + off);
		size_t val;
		if (cache && info == last_info) {
			val = last_val;
			if (!stats || info != NO_INFO)
				hs.nrep++;
			goto store;
		}
		if (!SYM_TYPE(type)) {
			if (type >= 64 || !(TYPE_MASK(IS_REL) >> type & 1))
				break;
			*where = (size_t)base + (rela ? r[2] : *where);
			hs.nrel++;
			continue;
		}
		if (info >= limit)
			break;
		size_t symi = QB_R_SYM(info);
		uint32_t to = qb_syminfo_word(si + symi) - QB_DIRECT_WORD;
		if (to >= ntgt)
			break;
		const struct qb_fast_tgt *f = &ft[to];
		if (flags & VALUES) {
			/* The target is as linkopt saw it (n != 0 only then),
			 * so the value it recorded is the definition's: nothing
			 * of the target is read. Its symbol table entries,
			 * scattered over every library, cost a cache line each,
			 * and most of the loop's time when they are not in the
			 * cache; the values lie in p's own table, in the order
			 * of its symbols. */
			uint32_t v = values[symi];
			if (!v || !f->n)
				break;
			if (ipdef) {
				uint32_t k = hints[symi] - f->lo;
				if (k == f->ip_def[0] || k == f->ip_def[1])
					break;
			}
			val = f->base + v;
		} else {
			uint32_t k = hints[symi] - f->lo;
			if (k >= f->n || (f->chain[k] ^ gnu[symi]) > 1)
				break;
			if (ipdef && (k == f->ip_def[0] || k == f->ip_def[1]))
				break;
			const Sym *s = f->syms + k;
			/* types 0-3: no type, object, function, section */
			if (!s->st_shndx || (s->st_info & 0xc))
				break;
			if (interp && qb_ibloom_maybe(gnu[symi]))
				break;
			val = f->base + s->st_value;
		}
		if (cache) {
			last_info = info;
			last_val = val;
		}
	store:
		put(where, val, r, rela, type);
		if (stats)
			qb.stats.bykind[qb_rel_kind(type)]++;
	}
	hs.info = last_info;
	hs.val = last_val;
	return r;
}

/* One function per instance. */
#define FAST_INSTANCE(name, rela, flags) \
static __attribute__((noinline)) const size_t *name(const size_t *r, const struct qb_hint_state *s) \
{ \
	(void)s; \
	return fast_run(r, rela, flags); \
}
FAST_INSTANCE(fast_rela_careful, 1, CAREFUL)
FAST_INSTANCE(fast_rel_careful, 0, CAREFUL)
FAST_INSTANCE(value_rela, 1, FAST_IPDEF | VALUES)
#if QB_VALUE_LOOP_REL
#define value_rel qb_value_loop_arch
#else
FAST_INSTANCE(value_rel, 0, FAST_IPDEF | VALUES)
#endif
#if QB_HINT_LOOP_RELA
#define fast_rela qb_hint_loop_arch
#else
FAST_INSTANCE(fast_rela, 1, FAST_IPDEF)
#endif
#if QB_HINT_LOOP_REL
#define fast_rel qb_hint_loop_arch
#else
FAST_INSTANCE(fast_rel, 0, FAST_IPDEF)
#endif

/* A relocation the loop left because its symbol is not bound directly,
 * bound here when linkopt recorded its scope definer (fastpath.c) and
 * the definition is a plain one of a start-up object or of p itself
 * (anything else: TLS, IFUNC, a definer that would need pinning, goes
 * to the general path), its place inside the current writable range.
 * Consecutive relocations against one symbol reuse the answer. */
static int bind_scoped(struct dso *p, const size_t *r, int rela, int stats)
{
	size_t off = r[0], info = r[1];
	unsigned type = QB_R_TYPE(info);
	if (!SYM_TYPE(type) || info >= hs.limit || off - hs.lo > hs.span)
		return 0;
	size_t symi = QB_R_SYM(info), val;
	if (symi == hs.scoped_sym && symi) {
		val = hs.scoped_val;
		if (stats)
			qb.stats.cache_hits++;
	} else {
		struct symdef d;
		if (!FX(p)->definers[symi] || !qb_scope_def(p, symi, &d) || (d.sym->st_info & 0xc) ||
		    (d.dso->runtime && d.dso != p))
			return 0;
		val = (size_t)d.dso->base + d.sym->st_value;
		hs.scoped_sym = symi;
		hs.scoped_val = val;
		qb_fs.scoped++;
	}
	put((size_t *)(hs.base + off), val, r, rela, type);
	if (stats)
		qb.stats.bykind[qb_rel_kind(type)]++;
	return 1;
}

/* The writable range holding a word at off; 0 when none does. */
static int place_range(const struct dso *p, size_t off)
{
	for (unsigned i = 0; i < p->nwr; i++)
		if (off >= p->wr_lo[i] && off <= p->wr_hi[i] && sizeof(size_t) <= p->wr_hi[i] - off) {
			hs.lo = p->wr_lo[i];
			hs.span = p->wr_hi[i] - hs.lo - sizeof(size_t);
			return 1;
		}
	return 0;
}

/* The state of the table being bound: set up at its first run. */
static void table_begin(struct dso *p, const size_t *end)
{
	hs.end = end;
	hs.lo = p->wr_lo[0];
	hs.span = p->wr_hi[0] - p->wr_lo[0] - sizeof(size_t);
	hs.nrel = hs.nrep = 0;
	hs.info = NO_INFO;
	hs.val = 0;
	hs.ntgt = FX(p)->nby_dynidx;
	/* symbol indexes fit r_info: nsyms < 2^32, and on ELFCLASS32 every
	 * index below 2^24 is one when nsyms is larger */
	hs.limit = p->nsyms >> (8 * sizeof(size_t) - SYM_SHIFT) ? (size_t)-1 :
		(size_t)p->nsyms << SYM_SHIFT;
	hs.si = FX(p)->syminfo;
	hs.hints = FX(p)->hints;
	hs.gnu = FX(p)->pre_gnu;
	hs.tgt = FX(p)->fast_tgt;
	hs.base = p->base;
	hs.bloom = FX(p)->fast_careful & FAST_BLOOM;
	hs.values = FX(p)->values;
	hs.scoped_sym = 0;
}

/* The reloc_run hook: binds from r on until a relocation needs the
 * core's general path (returned) or the table ends. Scope definers are
 * bound here too, unless every binding is reported. */
hidden const size_t *qb_fast_run(struct dso *p, const size_t *r, const size_t *end, int rela)
{
	static struct dso *cur;
	int stats = qb.debug & QB_DBG_STATS;
	/* the assembly binds the types of this mapping and no other */
	int asm_ok = SYM_TYPES == QB_HL_SYM_TYPES && TYPE_MASK(IS_REL) == (uint64_t)1 << QB_HL_R_RELATIVE &&
		TYPE_MASK(IS_WORD) == (uint64_t)1 << QB_HL_R_WORD && QB_HL_R_PLT == QB_HL_R_GOT + 1 &&
		SYM_TYPES == ((uint64_t)1 << QB_HL_R_WORD | (uint64_t)1 << QB_HL_R_GOT | (uint64_t)1 << QB_HL_R_PLT);
	const size_t *(*run)(const size_t *, const struct qb_hint_state *);
	if (stats || (FX(p)->fast_careful & FAST_BLOOM) || qb.env.no_symcache || !asm_ok)
		run = rela ? fast_rela_careful : fast_rel_careful;
	else if (FX(p)->values)
		run = rela ? value_rela : value_rel;
	else
		run = rela ? fast_rela : fast_rel;
	size_t ent = rela ? 3 : 2;
	if (cur != p || hs.end != end) {
		cur = p;
		table_begin(p, end);
	}
	int scoped = FX(p)->definers && !qb_bindings_watched();
	const size_t *start = r;
	size_t nscoped = 0, nrel = hs.nrel, nrep = hs.nrep;
	while ((r = run(r, &hs)) != end) {
		if (r[0] - hs.lo > hs.span && place_range(p, r[0]))
			continue;
		if (!scoped || !bind_scoped(p, r, rela, stats))
			break;
		nscoped++;
		r += ent;
	}
	/* what LD_DEBUG=statistics reports, counted by the careful loop */
	if (stats) {
		size_t n = (size_t)(r - start) / ent;
		qb.stats.bykind[RK_RELATIVE] += hs.nrel - nrel;
		qb.stats.relocs += n;
		qb.stats.cache_hits += hs.nrep - nrep;
		/* also direct hits, lookups and precomputed hashes: the
		 * statistics hook adds them to those counts */
		qb_fs.hinted_fast += n - nscoped - (hs.nrel - nrel) - (hs.nrep - nrep);
	}
	return r;
}
