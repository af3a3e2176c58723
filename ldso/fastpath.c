/* The fast paths fed by linkopt's tables: direct binding through
 * DT_SYMINFO, precomputed name hashes, and the interposer check that keeps
 * direct binding correct. Every table is validated once, when its object
 * is loaded; an invalid one is ignored (with an LD_DEBUG note), never
 * trusted. */
#include <string.h>
#include "fastpath.h"
#include "elfhash.h"

static void note(struct dso *p, const char *what)
{
	if (qb.debug & (QB_DBG_DIRECT | QB_DBG_LIBS | QB_DBG_STATS))
		qb_dbg("ignoring %s of %s: it fails validation", what, p->name);
}

hidden void qb_fast_setup(struct dso *p)
{
	const struct qb_dyninfo *d = &p->dyn;
	if (d->qb_table) {
		const void *tab = qb_laddr(p, d->qb_table);
		if (qb_in_image(p, d->qb_table, d->qb_tablesz) &&
		    qb_table_valid(tab, d->qb_tablesz, (uint32_t)p->nsyms)) {
			if (!qb.no_hashvals) {
				p->pre_gnu = qb_table_gnu(tab);
				p->pre_sysv = qb_table_sysv(tab);
			}
			p->self_id = qb_table_self_id(tab);
			/* the identities also name a module's parent */
			if (!qb.no_direct)
				p->needed_ids = qb_table_needed(tab, &p->nneeded_ids);
			if (!qb.no_direct && !qb.no_hints)
				p->hints = qb_table_hints(tab);
		} else {
			note(p, "the quickbind table");
		}
	}
	if (d->syminfo && !qb.no_direct) {
		if (d->syminent == sizeof(Syminfo) && d->syminsz / sizeof(Syminfo) >= p->nsyms &&
		    qb_in_image(p, d->syminfo, p->nsyms * sizeof(Syminfo)))
			p->syminfo = qb_laddr(p, d->syminfo);
		else
			note(p, "DT_SYMINFO");
	}
	if (d->flags_1 & DF_1_INTERPOSE)
		p->interposer = 1;
}

static void bloom_add(uint32_t h)
{
	size_t b1 = h & qb.ibloom_mask, b2 = qb_ibloom_bit2(h);
	qb.ibloom[b1 / QB_BLOOM_BITS] |= (size_t)1 << (b1 % QB_BLOOM_BITS);
	qb.ibloom[b2 / QB_BLOOM_BITS] |= (size_t)1 << (b2 % QB_BLOOM_BITS);
}

static int exported(const struct dso *p, size_t i)
{
	const Sym *s = p->syms + i;
	return s->st_shndx && ST_BIND(s->st_info) != STB_LOCAL && s->st_name < p->dyn.strsz;
}

/* Record that dep satisfies p's DT_NEEDED entry at .dynamic index idx;
 * the entry's definition hints hold when dep's identity is the one
 * linkopt recorded for it. */
hidden void qb_fast_needed(struct dso *p, size_t idx, struct dso *dep)
{
	if (!p->syminfo)
		return;
	if (!p->by_dynidx) {
		size_t n = 0;
		for (Dyn *e = (Dyn *)p->dynv; e->d_tag; e++)
			n++;
		p->by_dynidx = __libc_calloc(n, sizeof *p->by_dynidx + 1);
		if (!p->by_dynidx)
			return;
		p->hint_ok = (unsigned char *)(p->by_dynidx + n);
		p->nby_dynidx = n;
	}
	if (idx >= p->nby_dynidx)
		return;
	p->by_dynidx[idx] = dep;
	if (!p->hints || !dep->self_id)
		return;
	for (uint32_t k = 0; k < p->nneeded_ids; k++) {
		const struct qb_needed_id *e = &p->needed_ids[k];
		if (e->dynidx == idx) {
			p->hint_ok[idx] = ((uint64_t)e->id[1] << 32 | e->id[0]) == dep->self_id;
			if (!p->hint_ok[idx] && (qb.debug & QB_DBG_DIRECT))
				qb_dbg("direct %s: %s changed since linkopt ran: no definition hints",
					p->name, dep->name);
			break;
		}
	}
}

/* Bring the interposer list and its bloom filter in line with the global
 * scope: every object that interposes and is global, in load order. Called
 * after anything that may change the global scope (start-up, a dlopen, its
 * undo, an unload); costs one pass over the objects when nothing changed.
 * The storage only grows, so dropping objects needs no memory and cannot
 * fail: the undo of a dlopen and an unload always leave no pointer to a
 * freed object. Growing fails with qb_error and changes nothing. */
static size_t icap, ibloom_words;

hidden void qb_interposers_sync(void)
{
	size_t n = 0, names = 0;
	int same = 1;
	for (struct dso *p = qb.head; p; p = p->next)
		if (p->interposer && p->global) {
			if (n >= qb.ninterposers || qb.interposers[n] != p)
				same = 0;
			n++;
		}
	if (same && n == qb.ninterposers)
		return;
	for (struct dso *p = qb.head; p; p = p->next)
		if (p->interposer && p->global)
			for (size_t i = 1; i < p->nsyms; i++)
				names += exported(p, i);
	size_t bits = 64;
	while (bits < 16 * names && bits < ((size_t)1 << 24))
		bits <<= 1;
	if (n > icap) {
		struct dso **v = __libc_realloc(qb.interposers, n * sizeof *v);
		if (!v)
			qb_error("%s: out of memory for the interposer list", QB_LDSO_NAME);
		qb.interposers = v;
		icap = n;
	}
	if (bits / QB_BLOOM_BITS > ibloom_words) {
		size_t *b = __libc_calloc(bits / 8, 1);
		if (!b)
			qb_error("%s: out of memory for the interposer list", QB_LDSO_NAME);
		__libc_free(qb.ibloom);
		qb.ibloom = b;
		ibloom_words = bits / QB_BLOOM_BITS;
	}
	qb.ninterposers = 0;
	for (struct dso *p = qb.head; p; p = p->next)
		if (p->interposer && p->global)
			qb.interposers[qb.ninterposers++] = p;
	memset(qb.ibloom, 0, ibloom_words * sizeof *qb.ibloom);
	qb.ibloom_mask = ibloom_words * QB_BLOOM_BITS - 1;
	for (size_t k = 0; k < qb.ninterposers; k++) {
		struct dso *p = qb.interposers[k];
		for (size_t i = 1; i < p->nsyms; i++)
			if (exported(p, i))
				bloom_add(p->pre_gnu ? p->pre_gnu[i] : qb_gnu_hash(p->strings + p->syms[i].st_name));
	}
}

/* Fill the hash values of reference symi of p: from linkopt's table when
 * there is one, otherwise computed. */
hidden void qb_symreq_for(struct qb_symreq *r, struct dso *p, size_t symi,
	const char *name, const struct qb_verreq *ver)
{
	r->name = name;
	r->ver = ver;
	r->nlen = 0;
	if (p->pre_gnu) {
		r->gnu_h = p->pre_gnu[symi];
		qb.stats.prehashed++;
		if (p->pre_sysv) {
			r->sysv_h = p->pre_sysv[symi];
			r->have_sysv = 1;
		} else {
			r->have_sysv = 0;
		}
		return;
	}
	qb_symreq_init(r, name, ver);
}

/* The parent of a module (SYMINFO_BT_PARENT): the object of the global
 * scope whose identity linkopt recorded in needed[] under that index,
 * found once. Its symbol table is the one linkopt resolved against, so
 * its definition hints hold. */
static struct dso *parent_of(struct dso *p)
{
	if (p->parent_done)
		return p->parent;
	p->parent_done = 1;
	uint64_t want = 0;
	for (uint32_t k = 0; k < p->nneeded_ids; k++)
		if (p->needed_ids[k].dynidx == SYMINFO_BT_PARENT)
			want = (uint64_t)p->needed_ids[k].id[1] << 32 | p->needed_ids[k].id[0];
	for (struct dso *q = qb.head; want && q; q = q->next)
		if (q != p && q->global && q->self_id == want) {
			p->parent = q;
			break;
		}
	if (qb.debug & QB_DBG_DIRECT)
		qb_dbg("direct %s: parent %s", p->name, p->parent ? p->parent->name : "not loaded");
	return p->parent;
}

/* Direct binding of reference symi of p. Returns 1 with *out set when the
 * syminfo entry names a library and either an interposer or that library
 * defines the symbol; 0 when the standard lookup must decide. */
hidden int qb_direct_lookup(struct dso *p, size_t symi, struct qb_symreq *r, struct symdef *out)
{
	const Syminfo *si = &p->syminfo[symi];
	if (!(si->si_flags & SYMINFO_FLG_DIRECT))
		return 0;
	int parent = si->si_boundto == SYMINFO_BT_PARENT;
	if (!parent && si->si_boundto >= p->nby_dynidx)
		return 0;
	struct dso *target = parent ? parent_of(p) : p->by_dynidx[si->si_boundto];
	if (!target)
		return 0;
	if (qb.ninterposers && qb_ibloom_maybe(r->gnu_h)) {
		for (size_t k = 0; k < qb.ninterposers; k++) {
			struct dso *ip = qb.interposers[k];
			if (ip == p)
				continue;
			Sym *s = qb_lookup_in(ip, r);
			if (s) {
				out->sym = s;
				out->dso = ip;
				qb.stats.interposer_hits++;
				if (qb.debug & QB_DBG_DIRECT)
					qb_dbg("direct %s: %s: interposed by %s", p->name, r->name, ip->name);
				return 1;
			}
		}
	}
	Sym *s = (parent ? p->hints != 0 : p->hint_ok[si->si_boundto]) ? qb_hint_def(p, symi, target) : 0;
	if (s)
		qb.stats.hinted++;
	else
		s = qb_lookup_in(target, r);
	if (!s) {
		qb.stats.direct_misses++;
		if (qb.debug & QB_DBG_DIRECT)
			qb_dbg("direct %s: %s: not in %s, standard lookup", p->name, r->name, target->name);
		return 0;
	}
	/* The definition's own entry may forbid binding to it directly. */
	if (target->syminfo && (target->syminfo[s - target->syms].si_flags & SYMINFO_FLG_NOEXTDIRECT)) {
		if (qb.debug & QB_DBG_DIRECT)
			qb_dbg("direct %s: %s: definition in %s is no-direct, standard lookup",
				p->name, r->name, target->name);
		return 0;
	}
	out->sym = s;
	out->dso = target;
	qb.stats.direct_hits++;
	if (qb.debug & QB_DBG_DIRECT)
		qb_dbg("direct %s: %s -> %s", p->name, r->name, target->name);
	return 1;
}
