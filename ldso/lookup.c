/* The standard symbol lookup: each object's DT_GNU_HASH (bloom filter
 * first) or DT_HASH, with the binding, type and version rules; the global
 * scope is searched in its order (gscope.c) and the first definition wins. */
#include <string.h>
#include "globaltab.h"
#include "elfhash.h"
#include "namehash.h"



/* Equality of two NUL-terminated names, a word at a time. Whole words
 * are read only while both stay inside their current page, so no read can
 * fault; near a page end the comparison steps bytewise. */
static inline QB_WORD_READS int names_equal(const char *a, const char *b)
{
	const size_t W = sizeof(size_t), ones = (size_t)-1 / 255, highs = ones << 7;
	for (;;) {
		size_t ra = 4096 - ((uintptr_t)a & 4095), rb = 4096 - ((uintptr_t)b & 4095);
		for (size_t n = (ra < rb ? ra : rb) / W; n; n--) {
			size_t x, y;
			memcpy(&x, a, W);
			memcpy(&y, b, W);
			size_t zero = (x - ones) & ~x & highs;
			if (x != y)  /* equal only if both end before the difference */
				return zero && __builtin_ctzl(zero) < __builtin_ctzl(x ^ y);
			if (zero)
				return 1;
			a += W;
			b += W;
		}
		for (size_t k = 0; k < W; k++, a++, b++) {
			if (*a != *b)
				return 0;
			if (!*a)
				return 1;
		}
	}
}

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

/* The test every definition is put to, whichever path found it. Inlined
 * into the table's probe; out of line for the object walk, whose bloom and
 * bucket checks must stay small enough to be inlined in their loop. */
static inline __attribute__((always_inline)) int candidate_inl(struct dso *p, size_t i, const struct qb_symreq *r)
{
	const Sym *s = p->syms + i;
	if (!qb_def_accepted(s->st_shndx, s->st_info, s->st_value))
		return 0;
	if (s->st_name >= p->dyn.strsz)
		return 0;
	qb.stats.strcmps++;
	/* with the name's length known, a comparison of that many bytes
	 * (terminator included) when they lie inside the string table */
	if (r->nlen && r->nlen <= p->dyn.strsz - s->st_name ?
	    !bytes_equal(r->name, p->strings + s->st_name, r->nlen) :
	    !names_equal(r->name, p->strings + s->st_name))
		return 0;
	if (!p->versym)
		return 1;
	uint16_t vs = p->versym[i];
	const struct qb_verdef_ent *vd = 0;
	if ((size_t)(vs & 0x7fff) < p->nvdefs && p->vdefs[vs & 0x7fff].name)
		vd = &p->vdefs[vs & 0x7fff];
	return qb_version_match(vs, 1, vd, r->ver);
}

static __attribute__((noinline)) int candidate(struct dso *p, size_t i, const struct qb_symreq *r)
{
	return candidate_inl(p, i, r);
}

static inline Sym *gnu_lookup(struct dso *p, const struct qb_symreq *r)
{
	uint32_t h = r->gnu_h;
	if (!qb_gnu_bloom_maybe(p, h))
		return 0;
	uint32_t i = p->gh_buckets[h % p->gh_nbuckets];
	if (!i)
		return 0;
	const uint32_t *chain = p->gh_chain;
	for (; i < p->nsyms; i++) {
		uint32_t ch = chain[i];
		if ((ch | 1) == (h | 1) && candidate(p, i, r))
			return p->syms + i;
		if (ch & 1)
			break;
	}
	return 0;
}

static Sym *sysv_lookup(struct dso *p, struct qb_symreq *r)
{
	if (!r->have_sysv) {
		qb.stats.hashed++;
		r->sysv_h = qb_sysv_hash(r->name);
		r->have_sysv = 1;
	}
	const uint32_t *ht = p->hashtab;
	uint32_t nbucket = ht[0], nchain = ht[1];
	const uint32_t *chains = ht + 2 + nbucket;
	size_t guard = nchain;
	const uint32_t *pre = p->pre_sysv;
	for (uint32_t i = ht[2 + r->sysv_h % nbucket]; i && i < nchain && guard--; i = chains[i])
		if ((!pre || pre[i] == r->sysv_h) && candidate(p, i, r))
			return p->syms + i;
	return 0;
}

static inline Sym *lookup_one(struct dso *p, struct qb_symreq *r)
{
	qb.stats.probes++;
	return p->gh_bloom ? gnu_lookup(p, r) : sysv_lookup(p, r);
}

hidden Sym *qb_lookup_in(struct dso *p, struct qb_symreq *r)
{
	return lookup_one(p, r);
}

/* Does p define r? On success *def names the definition. */
static inline int defines(struct dso *p, struct qb_symreq *r, struct symdef *def)
{
	Sym *s = lookup_one(p, r);
	if (!s)
		return 0;
	def->sym = s;
	def->dso = p;
	return 1;
}

static struct symdef walk_global(struct dso *from, struct qb_symreq *r, struct dso *skip)
{
	struct symdef def = { 0, 0 };
	for (struct dso *p = from; p; p = p->gnext)
		if (p->global && p != skip && defines(p, r, &def))
			break;
	return def;
}

/* The start-up objects from position `from` on, through the global table
 * (globaltab.c): the entries of r's hash in scope order, each put to the
 * test the walk puts it to; the objects the table could not take are
 * probed at their place in the order. */
static inline __attribute__((always_inline)) int table_global(uint32_t from, struct qb_symreq *r,
	struct dso *skip, struct symdef *def)
{
	const struct qb_gtab *t = &qb_gtab;
	const uint32_t h = r->gnu_h, *slot = t->start + (h & t->mask);
	const struct qb_gt_ent *e = t->ent + slot[0], *end = t->ent + slot[1];
	struct dso *const *obj = t->obj;
	uint32_t found = t->nobj;
	qb.stats.probes++;
	for (; e < end; e++) {
		if (e->h != h)
			continue;
		uint32_t o = e->ref >> QB_GT_SYMBITS;
		struct dso *p = obj[o];
		size_t i = e->ref & (((uint32_t)1 << QB_GT_SYMBITS) - 1);
		if (o >= from && p != skip && candidate_inl(p, i, r)) {
			def->sym = p->syms + i;
			def->dso = p;
			found = o;
			break;
		}
	}
	if (__builtin_expect(t->nwalk != 0, 0))
		for (uint32_t w = 0; w < t->nwalk && t->walk_order[w] < found; w++)
			if (t->walk_order[w] >= from && t->walk[w] != skip && defines(t->walk[w], r, def))
				return 1;
	return found < t->nobj;
}

static uint32_t order_of(const struct dso *p)
{
	uint32_t o = 0;
	while (o < qb_gtab.nobj && qb_gtab.obj[o] != p)
		o++;
	return o;
}

/* LD_DIRECT_VERIFY: the walk's answer is the one used; a different answer
 * of the table is reported. Out of line: the hot path stays small. */
static __attribute__((noinline)) struct symdef verified(struct dso *from, struct qb_symreq *r,
	struct dso *skip, struct symdef def)
{
	struct symdef std = walk_global(from, r, skip);
	if (std.sym != def.sym) {
		qb.verify_diffs++;
		qb_dbg("verify: %s: global table gives %s, standard lookup gives %s", r->name,
			def.sym ? def.dso->name : "<undefined>", std.sym ? std.dso->name : "<undefined>");
	}
	return std;
}

/* The first object of the global scope, from `from` on in its order
 * (skipping `skip`), that defines r. The start-up objects come first and
 * never change: the global table answers for them when it is in use. */
static inline __attribute__((always_inline)) struct symdef global_from(struct dso *from,
	struct qb_symreq *r, struct dso *skip)
{
	if (!from || from->runtime || !qb_gtab_on())
		return walk_global(from, r, skip);
	struct symdef def = { 0, 0 };
	if (!table_global(from == qb.head ? 0 : order_of(from), r, skip, &def))
		def = walk_global(qb_gtab.last->gnext, r, skip);
	return qb.verify ? verified(from, r, skip, def) : def;
}

hidden struct symdef qb_lookup_global(struct dso *from, struct qb_symreq *r, struct dso *skip)
{
	return global_from(from, r, skip);
}

/* The global scope in its order, then (for objects loaded by dlopen)
 * the local scope of the dlopen root that brought them in. */
hidden struct symdef qb_lookup(struct qb_symreq *r, struct dso *skip, struct dso *root)
{
	qb.stats.lookups++;
	struct symdef def = global_from(qb.head, r, skip);
	if (!def.sym && root && root->scope)
		for (size_t i = 0; i < root->nscope; i++) {
			struct dso *p = root->scope[i];
			if (!p->global && p != skip && defines(p, r, &def))
				break;
		}
	return def;
}

hidden struct symdef qb_lookup_scope(struct dso **v, size_t n, struct qb_symreq *r)
{
	struct symdef def = { 0, 0 };
	qb.stats.lookups++;
	for (size_t i = 0; i < n && !defines(v[i], r, &def); i++)
		;
	return def;
}

hidden void qb_symreq_init(struct qb_symreq *r, const char *name, const struct qb_verreq *ver)
{
	r->name = name;
	r->gnu_h = qb_name_hash_len(name, &r->nlen);
	r->nlen++;
	qb.stats.hashed++;
	r->have_sysv = 0;
	r->ver = ver;
}
