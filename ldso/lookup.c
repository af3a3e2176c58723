/* The standard symbol lookup: each object's DT_GNU_HASH (bloom filter
 * first) or DT_HASH, with the binding, type and version rules; the global
 * scope is searched in its order (gscope.c) and the first definition wins. */
#include "symtest.h"
#include "elfhash.h"
#include "ext/ext.h"

static __attribute__((noinline)) int candidate(struct dso *p, size_t i, const struct qb_symreq *r)
{
	return qb_candidate(p, i, r);
}

static inline Sym *gnu_lookup(struct dso *p, const struct qb_symreq *r)
{
	uint32_t h = r->gnu_h;
	if (!qb_gnu_bloom_maybe(p, h))
		return 0;
	uint32_t i = p->gh_buckets[h % p->gh_nbuckets];
	if (!i || i < p->gh_symoffset)
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
	const uint32_t *pre = p->sym_sysv;
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
	if (s)
		*def = (struct symdef){ s, p };
	return s != 0;
}

/* from: a global object (or none), the walk follows the global scope's
 * order from it */
hidden struct symdef qb_walk_global(struct dso *from, struct qb_symreq *r, struct dso *skip)
{
	struct symdef def = { 0, 0 };
	for (struct dso *p = from; p; p = p->gnext)
		if (p->global && p != skip && defines(p, r, &def))
			break;
	return def;
}

/* Objects loaded by dlopen also see the local scope of the dlopen root
 * that brought them in, after the global scope. */
hidden struct symdef qb_lookup_local(struct dso *root, struct qb_symreq *r, struct dso *skip)
{
	struct symdef def = { 0, 0 };
	for (size_t i = 0; root && i < root->nscope; i++) {
		struct dso *p = root->scope[i];
		if (!p->global && p != skip && defines(p, r, &def))
			break;
	}
	return def;
}

/* The global scope from `from` on in its order (skipping `skip`), then
 * (for objects loaded by dlopen) the local scope of the dlopen root that
 * brought them in. */
hidden struct symdef qb_lookup_std(struct dso *from, struct qb_symreq *r, struct dso *skip,
	struct dso *root)
{
	struct symdef def = qb_walk_global(from, r, skip);
	return def.sym ? def : qb_lookup_local(root, r, skip);
}

/* Every lookup is answered by the first extension with a lookup hook
 * (ext.h), which may hand it to qb_lookup_std. */
hidden struct symdef qb_lookup(struct qb_symreq *r, struct dso *skip, struct dso *root)
{
	qb.stats.lookups++;
	return qb_ext_lookup()(qb.head, r, skip, root);
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
