/* The fast paths fed by linkopt's tables (fastpath.c): their state per
 * object, in its extension slot, and the definition hint of the general
 * path (the hinted modes of ldso/reloc.c bind by qb_hinted_value, ext.h):
 * a reference whose definition linkopt recorded, in a library that is
 * still the one linkopt saw, and that no interposer may define, is bound
 * without a lookup. */
#ifndef QB_FAST_H
#define QB_FAST_H

#include "ldso.h"
#include "ext.h"

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
	const char *launch_tab;     /* a program's table holding a launch record */
	const struct qb_launch_ans *ans; /* the record's answers to this object's */
	uint32_t acount;            /* references, symbols 0 to acount - 1 */
	const struct qb_needed_id *needed_ids;
	struct dso **by_dynidx;     /* DT_NEEDED entry index in .dynamic -> object */
	struct qb_hint_tgt *fast_tgt; /* the same, as the hinted modes read it */
	unsigned char *hint_ok;     /* by .dynamic index: target is as linkopt saw it */
	size_t nby_dynidx;
	struct dso *parent;         /* SYMINFO_BT_PARENT target */
	uint32_t nneeded_ids;
	uint32_t needed_next;       /* where fast_needed's next search starts */
	uint32_t std_relocs;        /* relocations not bound directly, as linkopt counted */
	uint32_t scoped_relocs;     /* of those, with a scope definer (scoped_known) */
	uint32_t ip_def[2];         /* definitions an interposer may take */
	unsigned ip_gen;            /* interposer list ip_def was computed for */
	unsigned char std_known;    /* std_relocs is there */
	unsigned char scoped_known; /* scoped_relocs is there */
	unsigned char parent_done;  /* parent looked for */
	unsigned char interposer;   /* LD_PRELOAD, the program, DF_1_INTERPOSE */
	unsigned char noext_known, noext_any;  /* a definition is SYMINFO_FLG_NOEXTDIRECT */
	unsigned char ip_many;      /* interposers may take more than ip_def */
};
_Static_assert(sizeof(struct qb_fast) <= QB_EXT_SLOT_BYTES, "struct qb_fast outgrew its slot");

/* p's fast-path state, in its extension slot */
static inline struct qb_fast *fast_of(const struct dso *p)
{
	return (struct qb_fast *)(p)->ext[QB_SLOT_FAST].bytes;
}

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
	size_t hinted_fast;  /* bound by a hint, without the name */
	size_t scoped;       /* bound through a scope definer */
	size_t recorded;     /* bound from the launch record */
};
extern struct qb_fast_stats qb_fs hidden;

/* The slots of a memo of lookup answers: a power of two, enough for the
 * names a start-up of this many objects asks again and no more, as every
 * page a memo touches is a fresh one. */
static inline size_t qb_memo_slots(void)
{
	size_t n = 64;
	while (n < 1024 && n < qb.ndso * 16)
		n *= 2;
	return n;
}

/* launch.c: the program's launch record, checked against the start-up
 * scope when start-up built it, ended by its first change; what p's
 * relocations read of it (1), or 0 when it does not answer for p. */
hidden void qb_launch_changed(void);
hidden int qb_launch_prepare(struct dso *p, struct qb_prepared *s);

/* prefetch.c, for the page policy */
hidden void qb_prefetch_opened(int fd, const struct stat *st);
hidden void qb_prefetch_decoded(struct dso *p);
hidden void qb_prefetch_loaded(struct dso *dep);
/* record.c, for the page policy: LD_RECORD_PAGES */
hidden int qb_recording(void);
hidden void qb_record_mapped(struct dso *p, int fd);
hidden int qb_scope_def(struct dso *p, size_t symi, struct symdef *out);
hidden int qb_noextdirect_any(struct dso *t);
/* The definition at index hint of definer x (which has a GNU hash
 * table), for a reference whose name has GNU hash h: qb_hint_def's guard
 * for a GNU-hashed target (x's chain holds h there) and the lookup's own
 * test; 0 when either fails. */
static inline int qb_definer_def(struct dso *x, uint32_t hint, uint32_t h, struct symdef *out)
{
	if (hint < x->gh_symoffset || hint >= x->nsyms || (x->gh_chain[hint] | 1) != (h | 1))
		return 0;
	Sym *s = x->syms + hint;
	if (!qb_def_accepted(s->st_shndx, s->st_info, s->st_value))
		return 0;
	out->sym = s;
	out->dso = x;
	return 1;
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
	uint32_t hint = fast_of(p)->hints[symi];
	if (!hint || hint >= t->nsyms || !fast_of(p)->pre_gnu || !t->syms[hint].st_shndx)
		return 0;
	if (t->gh_bloom) {
		if (hint < t->gh_symoffset || (t->gh_chain[hint] | 1) != (fast_of(p)->pre_gnu[symi] | 1))
			return 0;
	} else if (!fast_of(t)->pre_sysv || !fast_of(p)->pre_sysv || fast_of(t)->pre_sysv[hint] != fast_of(p)->pre_sysv[symi]) {
		return 0;
	}
	return t->syms + hint;
}

/* Bind reference symi of p through its definition hint; 0 when the
 * general path must decide (no hint, stale target, possible interposer,
 * a no-direct definition). */
static inline __attribute__((always_inline)) int qb_bind_hinted(struct dso *p, size_t symi, struct symdef *out)
{
	const Syminfo *si = &fast_of(p)->syminfo[symi];
	size_t to = si->si_boundto;
	if (!(si->si_flags & SYMINFO_FLG_DIRECT) || to >= fast_of(p)->nby_dynidx || !fast_of(p)->hint_ok[to] ||
	    !fast_of(p)->pre_gnu)
		return 0;
	struct dso *t = fast_of(p)->by_dynidx[to];
	Sym *s = qb_hint_def(p, symi, t);
	if (!s || (qb_fg.ninterposers && qb_ibloom_maybe(fast_of(p)->pre_gnu[symi])))
		return 0;
	if (fast_of(t)->syminfo && (fast_of(t)->syminfo[s - t->syms].si_flags & SYMINFO_FLG_NOEXTDIRECT))
		return 0;
	out->sym = s;
	out->dso = t;
	/* also a direct hit, a lookup and a precomputed hash: qb_debug_stats
	 * adds it to those counts */
	qb_fs.hinted_fast++;
	return 1;
}

#endif
