/* The one interface between the loader's core and its extensions.
 *
 * The core (the files of ldso/) maps, decodes, searches, looks up and relocates
 * exactly as the standard lookup requires, and is complete with no
 * extension at all (make QB_EXT=none). What makes it fast lives in
 * ldso/ext/, and the core reaches it only through the hooks below, at
 * points the core owns. Every hook is optional; an extension keeps its
 * per-object state in its own slot of struct dso (dso.ext[]), which the
 * core zeroes with the object and never reads.
 *
 * A hook that binds (bind, lookup) and a hinted mode must
 * give the answer the standard lookup would give, or decline and leave
 * the decision to the core; it never fails a relocation the core would
 * apply. */
#ifndef QB_EXT_H
#define QB_EXT_H

#include "ldso.h"

/* p's relocation entries that are not relative by the linker's count
 * (DT_RELACOUNT, a claim: only estimates rest on it), PLT slots included. */
static inline size_t qb_nonrelative_relocs(const struct dso *p)
{
	const struct qb_dyninfo *d = &p->dyn;
	size_t n = d->relasz / sizeof(Rela) + d->relsz / sizeof(Rel);
	return n - (d->relcount < n ? d->relcount : n) +
		d->pltrelsz / (d->pltrel == DT_RELA ? sizeof(Rela) : sizeof(Rel));
}

/* Is every binding verified (LD_DIRECT_VERIFY) or reported
 * (LD_DEBUG=bindings or direct)? Each is then watched where it is made
 * (qb_watch), on the path that runs without them. */
static inline int qb_bindings_watched(void)
{
	return qb.env.verify || (qb.debug & (QB_DBG_BINDINGS | QB_DBG_DIRECT));
}

/* The relocation modes (ldso/reloc.c), one per object, chosen in
 * qb_relocate: GENERAL resolves every reference by the standard lookup
 * and the bind hook; HINTED binds a reference linkopt bound directly by
 * its definition hint, checked against the target's hash chain; VALUED
 * by the definition's value linkopt recorded, the target being the
 * library linkopt saw; CAREFUL is HINTED that also counts, reuses the
 * last symbol's value and asks the interposers' bloom filter; RECORD
 * binds by the program's launch record (ext/launch.c). A hinted mode
 * leaves every relocation it cannot bind to the general path. */
enum { QB_MODE_GENERAL, QB_MODE_HINTED, QB_MODE_VALUED, QB_MODE_CAREFUL, QB_MODE_RECORD };

/* A direct target as the hinted modes read it: a hint h is usable when
 * k = h - lo < n, and then chain[k] and syms[k] are its GNU hash chain
 * entry and its symbol (both arrays start at symbol lo, the first one
 * the hash table holds); n == 0: not a target. ip_def: definitions an
 * interposer may take, in the same numbering (UINT32_MAX: none). On a
 * 32-bit machine it is padded to 32 bytes, a shift in the assembly of
 * arch/i386/relloops.asm. */
struct qb_hint_tgt {
	const uint32_t *chain;
	const Sym *syms;
	size_t base;
	uint32_t lo, n;
	uint32_t ip_def[2];
#if UINTPTR_MAX == 0xffffffff
	uint32_t pad;
#endif
};

/* What the prepare hook leaves for p's relocations: for every mode, the
 * extension whose bind hook knows p's references (binder) and their
 * names' GNU and SysV hashes, by symbol index; for a hinted mode, p's
 * syminfo entries, definition hints and recorded values, by symbol
 * index, its targets, by the .dynamic index of the DT_NEEDED entry, the
 * interposers' bloom filter when every reference must ask it (CAREFUL);
 * for RECORD, the launch record's answers and its objects' bases. */
struct qb_prepared {
	const struct qb_ext *binder;
	const uint32_t *gnu, *sysv;
	const Syminfo *si;
	const uint32_t *hints, *values;
	const struct qb_hint_tgt *tgt;
	size_t ntgt;
	const size_t *ibloom;
	size_t ibloom_mask;
	const struct qb_launch_ans *ans; /* RECORD: answers to symbols 0 to acount - 1 */
	size_t acount;
	const size_t *bases;          /* the record's objects' bases, nbases of them */
	size_t nbases;
};

/* The syminfo entry of a reference linkopt bound directly, (si_boundto,
 * si_flags) = (index of the DT_NEEDED entry, SYMINFO_FLG_DIRECT), read as
 * one word: the word minus QB_DIRECT_WORD is the entry's index, and any
 * other flag makes it too large for one. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the hinted modes read a syminfo entry as a little-endian word"
#endif
#define QB_DIRECT_WORD ((uint32_t)SYMINFO_FLG_DIRECT << 16)

static inline uint32_t qb_syminfo_word(const Syminfo *e)
{
	uint32_t w;
	__builtin_memcpy(&w, e, sizeof w);
	return w;
}

/* The interposers' bloom filter: two bits per GNU hash value, each from
 * the middle of a product (the hash's low bits barely mix). */
#define QB_BLOOM_BITS (8 * sizeof(size_t))
#define QB_IBLOOM_K1 0x9e3779b1u
#define QB_IBLOOM_K2 0x85ebca6bu

static inline size_t qb_ibloom_bit(uint32_t h, uint32_t k, size_t mask)
{
	return (size_t)((h * k) >> 16) & mask;
}

static inline int qb_ibloom_test(const size_t *bloom, size_t mask, uint32_t h)
{
	size_t b1 = qb_ibloom_bit(h, QB_IBLOOM_K1, mask);
	if (!(bloom[b1 / QB_BLOOM_BITS] >> (b1 % QB_BLOOM_BITS) & 1))
		return 0;
	size_t b2 = qb_ibloom_bit(h, QB_IBLOOM_K2, mask);
	return bloom[b2 / QB_BLOOM_BITS] >> (b2 % QB_BLOOM_BITS) & 1;
}

/* The kinds a hinted mode binds, as masks over type numbers below 64
 * that the compiler folds from the architecture's mapping. */
#define QB_TM1(t, c) ((uint64_t)!!c(qb_rel_kind(t)) << (t))
#define QB_TM4(t, c) (QB_TM1(t, c) | QB_TM1(t + 1, c) | QB_TM1(t + 2, c) | QB_TM1(t + 3, c))
#define QB_TM16(t, c) (QB_TM4(t, c) | QB_TM4(t + 4, c) | QB_TM4(t + 8, c) | QB_TM4(t + 12, c))
#define QB_TYPE_MASK(c) (QB_TM16(0, c) | QB_TM16(16, c) | QB_TM16(32, c) | QB_TM16(48, c))
#define QB_IS_SYM(k) ((k) == RK_WORD || (k) == RK_GOT || (k) == RK_PLT)
#define QB_IS_WORD(k) ((k) == RK_WORD)
#define QB_IS_REL(k) ((k) == RK_RELATIVE)
/* one register's shifts when every symbolic type is below 32 */
#define QB_SYM_TYPE(t) (QB_TYPE_MASK(QB_IS_SYM) >> 32 ? (t) < 64 && (QB_TYPE_MASK(QB_IS_SYM) >> (t) & 1) : \
	(t) < 32 && ((uint32_t)QB_TYPE_MASK(QB_IS_SYM) >> (t) & 1))
/* r_info of a relative relocation (symbol 0), and of a word relocation
 * against symbol 0, which the general path also binds to 0 (CAREFUL's
 * last symbol before any) */
#define QB_REL_INFO ((size_t)__builtin_ctzll(QB_TYPE_MASK(QB_IS_REL)))
#define QB_NO_INFO ((size_t)__builtin_ctzll(QB_TYPE_MASK(QB_IS_WORD)))

/* Reference symi (below p's symbol count, which acount is not above) by
 * the launch record: 3 with *val the answer linkopt
 * recorded (a definer's base plus the definition's value, or 0 for a
 * weak reference nothing defines), 0 when the record leaves it to the
 * lookup. */
static inline __attribute__((always_inline)) int qb_record_value(const struct qb_prepared *s,
	size_t symi, size_t *val)
{
	if (symi >= s->acount)
		return 0;
	uint64_t a;
	__builtin_memcpy(&a, &s->ans[symi], sizeof a);
	size_t d = (size_t)(uint32_t)a - 1;
	if (d < s->nbases)
		*val = s->bases[d] + (size_t)(a >> 32);
	else if ((uint32_t)a == QB_LAUNCH_NONE)
		*val = 0;
	else
		return 0;
	return 3;
}

/* Is reference symi one a hinted mode binds in its loop when its checks
 * hold (bound directly, or answered by the record)? */
static inline int qb_hinted_kind(const struct qb_prepared *s, size_t symi)
{
	if (s->acount)
		return symi < s->acount && s->ans[symi].def;
	return s->si && qb_syminfo_word(s->si + symi) - QB_DIRECT_WORD < s->ntgt;
}

/* How a hinted mode binds reference symi (below p's symbol count): 1
 * with *val the definition's address (QB_BY_DIRECT), 3 by the launch
 * record (QB_BY_RECORD), 0 when the general path must decide (not bound
 * directly, a target that changed, a definition an interposer may take,
 * one that is undefined, TLS or an IFUNC, or no value recorded). */
static inline __attribute__((always_inline)) int qb_hinted_value(const struct qb_prepared *s,
	size_t symi, const int mode, size_t *val)
{
	if (mode == QB_MODE_RECORD)
		return qb_record_value(s, symi, val);
	uint32_t to = qb_syminfo_word(s->si + symi) - QB_DIRECT_WORD;
	if (to >= s->ntgt)
		return 0;
	const struct qb_hint_tgt *f = &s->tgt[to];
	uint32_t k = s->hints[symi] - f->lo;
	if (mode == QB_MODE_VALUED) {
		/* nothing of the target is read: its symbol table entries,
		 * scattered over every library, cost a cache line each */
		uint32_t v = s->values[symi];
		if (!v || !f->n || k == f->ip_def[0] || k == f->ip_def[1])
			return 0;
		*val = f->base + v;
		return 1;
	}
	if (k >= f->n || (f->chain[k] ^ s->gnu[symi]) > 1 || k == f->ip_def[0] || k == f->ip_def[1])
		return 0;
	const Sym *d = f->syms + k;
	/* types 0-3: no type, object, function, section */
	if (!d->st_shndx || (d->st_info & 0xc))
		return 0;
	if (mode == QB_MODE_CAREFUL && s->ibloom && qb_ibloom_test(s->ibloom, s->ibloom_mask, s->gnu[symi]))
		return 0;
	*val = f->base + d->st_value;
	return 1;
}

/* The ways a fast path binds a reference without the named lookup, as
 * qb_hinted_value numbers them. */
enum { QB_BY_DIRECT = 1, QB_BY_SCOPE, QB_BY_RECORD };

/* Watching the bindings made without the named lookup (ext/watch.c): a
 * binding of reference symi of p to val, by one of the ways above, and
 * the relocations a hinted mode bound, r to end; neither changes any. */
hidden void qb_watch(struct dso *p, size_t symi, size_t val, int by);
hidden void qb_observe(struct dso *p, const struct qb_prepared *s, const size_t *r, const size_t *end,
	int rela, int mode);

/* Reference symi's hashes, when the extension that prepared p's
 * relocations has them (linkopt computed them): 1 with r filled. */
static inline int qb_prepared_hashes(const struct qb_prepared *s, size_t symi, struct qb_symreq *r)
{
	if (!s->gnu)
		return 0;
	r->nlen = 0;
	r->gnu_h = s->gnu[symi];
	r->have_sysv = s->sysv != 0;
	r->sysv_h = r->have_sysv ? s->sysv[symi] : 0;
	qb.stats.prehashed++;
	return 1;
}

/* The file a load of name for needed_by would open now, opened, or -1
 * (ldso/search.c; pages asks early for what it will read). */
hidden int qb_search_open(const char *name, struct dso *needed_by);

/* The hooks, each with the extensions that use it. */
struct qb_ext {
	const char *name;
	/* an object's file is open at fd (its fstat: st): asked before the
	 * loader reads anything of it (p == 0; pages: is start-up warm?),
	 * then once its segments are mapped, nothing of them read yet (p;
	 * pages: a recording run's reads of the file) */
	void (*file)(struct dso *p, int fd, const struct stat *st);
	/* p's dynamic section is decoded (fast: validate linkopt's tables;
	 * pages: populate them, and ask early for the libraries p needs, or
	 * for the closure the program records) */
	void (*decoded)(struct dso *p);
	/* p's DT_NEEDED entry at .dynamic index idx is satisfied by dep
	 * (fast: the direct targets, and whether each is the library
	 * linkopt saw; pages: ask for what dep's own libraries will read) */
	void (*needed)(struct dso *p, size_t idx, struct dso *dep);
	/* the global scope changed: start-up loaded, a dlopen, its undo, an
	 * unload; may fail with qb_error only inside a transaction (fast:
	 * the interposer list; globaltab: its memo) */
	void (*scope_changed)(void);
	/* before p's first relocation: the mode its tables run in, and *s
	 * (fast) */
	int (*prepare)(struct dso *p, struct qb_prepared *s);
	/* reference symi of p, asked of p's binder alone, twice: before its
	 * name is read (r == 0), then with the name and its hash at hand;
	 * 1 with *out bound (fast: a definition hint or a scope definer,
	 * then direct binding; LD_DIRECT_VERIFY checks either) */
	int (*bind)(struct dso *p, size_t symi, struct qb_symreq *r, struct symdef *out);
	/* the first definition of r in the global scope from `from` on,
	 * skipping skip, then in root's local scope: the first extension
	 * with this hook answers every lookup, and may hand it to
	 * qb_lookup_std (globaltab: one table of the start-up scope, or a
	 * memo of its answers) */
	struct symdef (*lookup)(struct dso *from, struct qb_symreq *r, struct dso *skip,
		struct dso *root);
	/* p's relocations are all applied (pages: give back its tables) */
	void (*relocated)(struct dso *p);
	/* p leaves the loader: nothing may point at it any more (fast) */
	void (*released)(struct dso *p);
	/* a dlopen handle was closed, under the loader lock (unload: with
	 * LD_DLCLOSE=unload, unload what nothing needs) */
	void (*closed)(void);
	/* def, an object dlopen brought in, must stay loaded for from (a
	 * binding of its relocation or dlsym), or for good (from == 0: an
	 * exit or fork handler, or a key destructor, names it) (unload) */
	void (*pin)(struct dso *from, struct dso *def);
	/* LD_DEBUG=statistics: fold == 1, add to the core's counts; fold ==
	 * 0, print the extension's own lines (fast) */
	void (*stats)(struct qb_stats *s, const char *when, int fold);
};

/* The extensions built in, in the order their hooks are asked; ends with
 * a null pointer (ldso/ext/registry.c, or ldso/ext/none.c). */
extern const struct qb_ext *const qb_exts[] hidden;

#define QB_EXT_EACH(e) for (const struct qb_ext *const *e = qb_exts; *e; e++)

static inline void qb_ext_file(struct dso *p, int fd, const struct stat *st)
{
	QB_EXT_EACH(e) if ((*e)->file) (*e)->file(p, fd, st);
}

static inline void qb_ext_decoded(struct dso *p)
{
	QB_EXT_EACH(e) if ((*e)->decoded) (*e)->decoded(p);
}

static inline void qb_ext_needed(struct dso *p, size_t idx, struct dso *dep)
{
	QB_EXT_EACH(e) if ((*e)->needed) (*e)->needed(p, idx, dep);
}

static inline void qb_ext_scope_changed(void)
{
	QB_EXT_EACH(e) if ((*e)->scope_changed) (*e)->scope_changed();
}

/* The mode of p's relocations: the first extension's that has one. */
static inline int qb_ext_prepare(struct dso *p, struct qb_prepared *s)
{
	int mode = QB_MODE_GENERAL;
	QB_EXT_EACH(e) if ((*e)->prepare && (mode = (*e)->prepare(p, s))) break;
	return mode;
}

static inline int qb_ext_bind(const struct qb_prepared *s, struct dso *p, size_t symi,
	struct qb_symreq *r, struct symdef *out)
{
	return s->binder && s->binder->bind(p, symi, r, out);
}

/* The lookup function: the first extension's, or the standard one, found
 * once. */
typedef struct symdef (*qb_lookup_fn)(struct dso *, struct qb_symreq *, struct dso *, struct dso *);
static inline qb_lookup_fn qb_ext_lookup(void)
{
	static qb_lookup_fn fn;
	if (!fn) {
		fn = qb_lookup_std;
		QB_EXT_EACH(e) if ((*e)->lookup) {
			fn = (*e)->lookup;
			break;
		}
	}
	return fn;
}

static inline void qb_ext_relocated(struct dso *p)
{
	QB_EXT_EACH(e) if ((*e)->relocated) (*e)->relocated(p);
}

static inline void qb_ext_released(struct dso *p)
{
	QB_EXT_EACH(e) if ((*e)->released) (*e)->released(p);
}

static inline void qb_ext_closed(void)
{
	QB_EXT_EACH(e) if ((*e)->closed) (*e)->closed();
}

/* Does an extension unload at dlclose (LD_DLCLOSE=unload means nothing
 * without one)? */
static inline int qb_ext_unloads(void)
{
	QB_EXT_EACH(e) if ((*e)->closed) return 1;
	return 0;
}

static inline void qb_ext_pin(struct dso *from, struct dso *def)
{
	QB_EXT_EACH(e) if ((*e)->pin) (*e)->pin(from, def);
}

/* An exit or fork handler, or a key destructor, names these addresses:
 * their objects are pinned for good, as it runs after any dlclose
 * (ext/unload.c; nothing to pin in a loader that never unloads). */
hidden void qb_ext_registered(const void *a, const void *b, const void *c);

static inline void qb_ext_stats(struct qb_stats *s, const char *when, int fold)
{
	QB_EXT_EACH(e) if ((*e)->stats) (*e)->stats(s, when, fold);
}

#endif
