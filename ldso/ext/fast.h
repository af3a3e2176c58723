/* The fast paths fed by linkopt's tables (fastpath.c, hintloop.c): their
 * state per object, in its extension slot, and the hot part, inlined into
 * the relocation loop: a reference whose definition linkopt recorded, in a
 * library that is still the one linkopt saw, and that no interposer may
 * define, is bound without a lookup. */
#ifndef QB_FAST_H
#define QB_FAST_H

#include "ldso.h"
#include "consts.h"
#include "ext.h"

struct qb_fast_tgt;

/* An object's fast-path state (0 when absent, invalid or switched off). */
struct qb_fast {
	const Syminfo *syminfo;     /* one entry per dynamic symbol */
	const uint32_t *pre_gnu;    /* GNU hash of each dynamic symbol name */
	const uint32_t *pre_sysv;   /* SysV hash of each dynamic symbol name */
	const uint32_t *hints;      /* definition index in the direct target */
	const uint32_t *values;     /* that definition's st_value (0: read the target) */
	const uint32_t *definers;   /* 1 + needed_ids index of a scope definer, 0 */
	uint64_t self_id;           /* identity of this object's symbol table */
	const Phdr *tabseg;         /* linkopt's segment, released whole (pages.c) */
	const struct qb_needed_id *needed_ids;
	struct dso **by_dynidx;     /* DT_NEEDED entry index in .dynamic -> object */
	struct qb_fast_tgt *fast_tgt; /* the same, as the hinted loop reads it */
	unsigned char *hint_ok;     /* by .dynamic index: target is as linkopt saw it */
	size_t nby_dynidx;
	struct dso *parent;         /* SYMINFO_BT_PARENT target */
	uint32_t nneeded_ids;
	uint32_t std_relocs;        /* relocations not bound directly, as linkopt counted */
	uint32_t scoped_relocs;     /* of those, with a scope definer (scoped_known) */
	uint32_t ip_def[2];         /* definitions an interposer may take */
	unsigned ip_gen;            /* interposer list ip_def was computed for */
	unsigned char std_known;    /* std_relocs is there */
	unsigned char scoped_known; /* scoped_relocs is there */
	unsigned char parent_done;  /* parent looked for */
	unsigned char interposer;   /* LD_PRELOAD, the program, DF_1_INTERPOSE */
	unsigned char noext_known, noext_any;  /* a definition is SYMINFO_FLG_NOEXTDIRECT */
	unsigned char fast_careful; /* FAST_*: what the hinted loop must also check */
	unsigned char ip_many;      /* interposers may take more than ip_def */
};
_Static_assert(sizeof(struct qb_fast) <= QB_EXT_SLOT_BYTES, "struct qb_fast outgrew its slot");

#define FX(p) ((struct qb_fast *)(p)->ext[QB_SLOT_FAST].bytes)

/* The interposers of the global scope, checked before any direct target,
 * and a bloom filter over their exported names. */
struct qb_fast_global {
	struct dso **interposers;
	size_t ninterposers;
	size_t *ibloom;
	size_t ibloom_mask;         /* number of bits - 1 */
};
extern struct qb_fast_global qb_fg hidden;

/* What LD_DEBUG=statistics reports of the fast paths. */
struct qb_fast_stats {
	size_t direct_hits, direct_misses, interposer_hits, prehashed, hinted;
	size_t hinted_fast;  /* bound in the relocation loop by a hint */
	size_t scoped;       /* bound through a scope definer */
};
extern struct qb_fast_stats qb_fs hidden;

/* fastpath.c */
hidden int qb_scope_def(struct dso *p, size_t symi, struct symdef *out);
hidden int qb_noextdirect_any(struct dso *t);
/* hintloop.c */
hidden const size_t *qb_fast_run(struct dso *p, const size_t *r, const size_t *end, int rela);

/* A direct target as the hinted relocation loop (hintloop.c and its
 * arch/ assembly) reads it: a hint h is usable when k = h - lo < n, and
 * then chain[k] and syms[k] are its GNU hash chain entry and its symbol
 * (both arrays start at symbol lo, the first one the hash table holds);
 * n == 0: not a target. ip_def are definitions an interposer may take, in
 * the same numbering (UINT32_MAX: none). The layout is the one
 * arch/<arch>/consts.h gives the assembly (QB_FT_*), padded to
 * 1 << QB_FT_SHIFT bytes where the assembly scales by a shift. */
struct qb_fast_tgt {
	const uint32_t *chain;
	const Sym *syms;
	size_t base;
	uint32_t lo, n;
	uint32_t ip_def[2];
#if QB_FT_SIZE > 7 * 4 && QB_WORD_SIZE == 4
	uint32_t pad[(QB_FT_SIZE - 7 * 4) / 4];
#endif
};

/* What the hinted loop reads (hintloop.c; the QB_HS_* offsets of
 * arch/<arch>/consts.h): where the table ends, the writable range that
 * held the last place, r_info of symbol index nsyms (type 0), the number
 * of targets, the object's tables and base; the C loop also keeps its
 * symbol cache and counts here, and whether to ask the bloom filter. */
struct qb_hint_state {
	const size_t *end;
	size_t lo, span;
	size_t limit, ntgt;
	const Syminfo *si;
	const uint32_t *hints, *gnu;
	const struct qb_fast_tgt *tgt;
	unsigned char *base;
	size_t info, val, nrel, nrep;
	int bloom;
	const uint32_t *values;
	size_t scoped_sym, scoped_val;  /* bind_scoped's last answer */
};

/* The hinted relocation loop (hintloop.c, with an arch/ assembly
 * version of its common case). What can be decided per object or per
 * target is decided once, before the loop (qb_fast_prepare): whether the
 * object's tables are in use, which DT_NEEDED entries name a library that
 * is still the one linkopt saw, and for each such target that it has a
 * GNU hash table (the hint is checked against its chain), that none of
 * its definitions forbids direct binding and which of them an interposer
 * may take. Per relocation what remains is what the relocation itself may
 * get wrong: its place (inside a writable segment), its type, its symbol
 * index, its syminfo entry, the hint's range, the referenced name's hash
 * in the target's chain at the hint, the definition's section and type;
 * or, when linkopt recorded the definition's value (docs/FORMAT.md 2.3),
 * only that the value is there and the target is as linkopt saw it.
 * Everything else goes through the general path, which decides and
 * reports exactly as without this loop. */

/* The relocation types the loop binds, as bit masks over type numbers
 * below 64: constants the compiler folds from the architecture's
 * mapping. */
#define TYPE_BIT(t, cond) ((uint64_t)!!(cond(qb_rel_kind(t))) << (t))
#define TYPE_BITS8(t, c) (TYPE_BIT(t, c) | TYPE_BIT(t + 1, c) | TYPE_BIT(t + 2, c) | \
	TYPE_BIT(t + 3, c) | TYPE_BIT(t + 4, c) | TYPE_BIT(t + 5, c) | TYPE_BIT(t + 6, c) | \
	TYPE_BIT(t + 7, c))
#define TYPE_MASK(c) (TYPE_BITS8(0, c) | TYPE_BITS8(8, c) | TYPE_BITS8(16, c) | \
	TYPE_BITS8(24, c) | TYPE_BITS8(32, c) | TYPE_BITS8(40, c) | TYPE_BITS8(48, c) | \
	TYPE_BITS8(56, c))
#define IS_SYM(k) ((k) == RK_WORD || (k) == RK_GOT || (k) == RK_PLT)
#define IS_WORD(k) ((k) == RK_WORD)
#define IS_REL(k) ((k) == RK_RELATIVE)

/* What the loop must check beyond the common case (dso.fast_careful):
 * definitions an interposer may take, the interposers' bloom filter. */
enum { FAST_IPDEF = 1, FAST_BLOOM = 2 };

/* The syminfo entry of a reference linkopt bound directly, (si_boundto,
 * si_flags) = (index of the DT_NEEDED entry, SYMINFO_FLG_DIRECT), read as
 * one word: the word minus QB_DIRECT_WORD is the DT_NEEDED entry's index,
 * and any other flag makes it too large for one. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the hinted loop reads a syminfo entry as a little-endian word"
#endif
#define QB_DIRECT_WORD ((uint32_t)SYMINFO_FLG_DIRECT << 16)

static inline uint32_t qb_syminfo_word(const Syminfo *e)
{
	uint32_t w;
	__builtin_memcpy(&w, e, sizeof w);
	return w;
}

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
	return qb_ibloom_test(qb_fg.ibloom, qb_fg.ibloom_mask, h);
}

/* The definition linkopt recorded for reference symi of p in target t,
 * when it can be trusted: t is the library linkopt saw (checked by the
 * caller through hint_ok), and t holds, for that symbol, the hash of the
 * referenced name: in its GNU hash chain, or, for a DT_HASH-only target,
 * in its own table of SysV hash values. */
static inline Sym *qb_hint_def(struct dso *p, size_t symi, struct dso *t)
{
	uint32_t hint = FX(p)->hints[symi];
	if (!hint || hint >= t->nsyms || !FX(p)->pre_gnu || !t->syms[hint].st_shndx)
		return 0;
	if (t->gh_bloom) {
		if (hint < t->gh_symoffset || (t->gh_chain[hint] | 1) != (FX(p)->pre_gnu[symi] | 1))
			return 0;
	} else if (!FX(t)->pre_sysv || !FX(p)->pre_sysv || FX(t)->pre_sysv[hint] != FX(p)->pre_sysv[symi]) {
		return 0;
	}
	return t->syms + hint;
}

/* Bind reference symi of p through its definition hint; 0 when the
 * general path must decide (no hint, stale target, possible interposer,
 * a no-direct definition, or diagnostics that want every decision). */
static inline __attribute__((always_inline)) int qb_bind_hinted(struct dso *p, size_t symi, struct symdef *out)
{
	const Syminfo *si = &FX(p)->syminfo[symi];
	size_t to = si->si_boundto;
	if (!(si->si_flags & SYMINFO_FLG_DIRECT) || to >= FX(p)->nby_dynidx || !FX(p)->hint_ok[to] ||
	    !FX(p)->pre_gnu || qb_bindings_watched())
		return 0;
	struct dso *t = FX(p)->by_dynidx[to];
	Sym *s = qb_hint_def(p, symi, t);
	if (!s || (qb_fg.ninterposers && qb_ibloom_maybe(FX(p)->pre_gnu[symi])))
		return 0;
	if (FX(t)->syminfo && (FX(t)->syminfo[s - t->syms].si_flags & SYMINFO_FLG_NOEXTDIRECT))
		return 0;
	out->sym = s;
	out->dso = t;
	/* also a direct hit, a lookup and a precomputed hash: qb_debug_stats
	 * adds it to those counts */
	qb_fs.hinted_fast++;
	return 1;
}

#endif
