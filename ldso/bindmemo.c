/* The binding memo: what the symbolic relocations of an object loaded by
 * dlopen bound to, kept past its dlclose so that a reload of the same file
 * in the same scope binds without a single lookup.
 *
 * Why the reuse is exact: the standard lookup is a function of the
 * referencing object (its names, versions and flags), of the objects it
 * searches, in their order (the global scope, then the local scope of the
 * dlopen root), and of the loader's switches. A memo records the answer
 * of every binding as (place in that list, symbol index), together with
 * the identity of every file in the list (device, inode, size,
 * modification and change times; start-up objects, which never unload,
 * by their address) and the switches. A reload uses it only when the
 * object is the same file and the list it would search is, element by
 * element, the same files in the same order: then every lookup would give
 * the same answer. Anything else (a file replaced, an object loaded
 * GLOBAL in between, another dlopen root, a different switch) records
 * afresh. Bindings that are not a plain definition (IFUNC, copy, TLS,
 * deferred lazy slots, undefined weak references) are never taken from
 * the memo: the general path makes them as before.
 *
 * The memo changes no other step: the object is mapped, its constructors
 * and destructors run as without it (the reopen cache, reopen.c, builds
 * on it to skip mapping and relocation). Kept
 * memos are bounded in number and bytes, oldest dropped first;
 * LD_NOBINDMEMO=1 turns the memo off. */
#include <string.h>
#include <sys/mman.h>
#include "fastpath.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MEMO_MAX_KEPT 8
#define MEMO_MAX_BYTES ((size_t)4 << 20)
#define SYM_BITS 20
#define POS_MAX ((1u << (32 - SYM_BITS)) - 1)

struct qb_memo {
	struct qb_memo *next;       /* kept memos, oldest first */
	struct qb_fileid self;
	unsigned flags;
	size_t nids;
	struct qb_fileid *ids;         /* the scope searched, in lookup order */
	uint32_t *ent;              /* by symbol index: (1 + place) << SYM_BITS | index */
	size_t nent, capent;
	size_t *stv;                /* st_value of each entry's definition (0: not plain) */
	size_t *val;                /* a reuse's addresses of ent (0: not a plain one) */
	uintptr_t *bases;           /* by place: the base val was computed with */
	uint32_t *used;             /* places bound to, once each */
	uint32_t *runs;             /* pages the relocations write: first, count */
	size_t nruns;
	size_t nused;
	unsigned char complete, broken;
	unsigned serial;            /* names it for the reopen cache */
	/* what decoding the file's hash tables gave (dso.c), relative to
	 * its base */
	struct {
		size_t hash, gnu_hash, nsyms, bloom, buckets, chain;
		uint32_t nbuckets, bloom_mask, shift, symoffset;
	} h;
};

static struct qb_memo *kept;
static size_t nkept, kept_bytes;
static unsigned serials;
/* the scope of the relocation pass under way (freed by the next one when
 * a failure unwound it) */
static struct dso **pending;

static size_t memo_size(const struct qb_memo *m)
{
	return sizeof *m + m->nids * sizeof *m->ids + m->capent * sizeof *m->ent +
		m->nused * sizeof *m->used + 2 * m->nruns * sizeof *m->runs +
		(m->val ? 2 * m->nent * sizeof *m->val + m->nids * sizeof *m->bases : 0);
}

/* Kept memos and those of loaded objects. */
hidden size_t qb_memo_bytes(void)
{
	size_t n = kept_bytes;
	for (struct dso *p = qb.head; p; p = p->next)
		if (p->memo)
			n += memo_size(p->memo);
	return n;
}

static void memo_free(struct qb_memo *m)
{
	if (!m)
		return;
	__libc_free(m->ids);
	__libc_free(m->ent);
	__libc_free(m->used);
	__libc_free(m->runs);
	__libc_free(m->val);
	__libc_free(m->stv);
	__libc_free(m->bases);
	__libc_free(m);
}

static void id_of(const struct dso *p, struct qb_fileid *id)
{
	if (!p->runtime) {
		/* never unloaded: its address names it for the process's life */
		*id = (struct qb_fileid){ (uint64_t)-1, (uintptr_t)p, 0, 0, 0 };
		return;
	}
	*id = p->id;
}

static unsigned switches(void)
{
	return qb.no_direct | qb.no_hashvals << 1 | qb.no_symcache << 2 | qb.no_hints << 3 |
		qb.verify << 4;
}

/* The objects a lookup from p searches, in order: as qb_lookup walks. */
static struct dso **scope_of(struct dso *p, size_t *n)
{
	struct dso *root = p->reloc_root;
	size_t cnt = 0, k = 0;
	for (struct dso *q = qb.head; q; q = q->next)
		cnt += q->global;
	if (root && root->scope)
		for (size_t i = 0; i < root->nscope; i++)
			cnt += !root->scope[i]->global;
	struct dso **v = __libc_malloc((cnt ? cnt : 1) * sizeof *v);
	if (!v)
		return 0;
	for (struct dso *q = qb.head; q; q = q->next)
		if (q->global)
			v[k++] = q;
	if (root && root->scope)
		for (size_t i = 0; i < root->nscope; i++)
			if (!root->scope[i]->global)
				v[k++] = root->scope[i];
	*n = k;
	return v;
}

static struct qb_memo *take_kept(const struct qb_fileid *self)
{
	for (struct qb_memo **pp = &kept; *pp; pp = &(*pp)->next)
		if (qb_fileid_eq(&(*pp)->self, self)) {
			struct qb_memo *m = *pp;
			*pp = m->next;
			m->next = 0;
			nkept--;
			kept_bytes -= memo_size(m);
			return m;
		}
	return 0;
}

static int same_scope(const struct qb_memo *m, struct dso **objs, size_t n)
{
	if (m->flags != switches() || m->nids != n || !m->complete || m->broken)
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct qb_fileid id;
		id_of(objs[i], &id);
		if (!qb_fileid_eq(&id, &m->ids[i]))
			return 0;
	}
	return 1;
}

/* The address each entry stands for in this load (0: the general path
 * decides: an IFUNC, or an index the target does not have). Kept with the
 * memo, so that a reload allocates nothing. */
static int memo_values(struct qb_memo *m, struct dso *const *objs)
{
	size_t n = m->nent ? m->nent : 1;
	if (!m->val) {
		m->val = __libc_malloc(n * sizeof *m->val);
		m->stv = __libc_malloc(n * sizeof *m->stv);
		m->bases = __libc_calloc(m->nids ? m->nids : 1, sizeof *m->bases);
		if (!m->val || !m->stv || !m->bases) {
			__libc_free(m->val);
			__libc_free(m->stv);
			__libc_free(m->bases);
			m->val = m->stv = 0;
			m->bases = 0;
			return 0;
		}
		/* the same file: the same values, relative to its base */
		for (size_t i = 0; i < m->nent; i++) {
			uint32_t e = m->ent[i];
			size_t v = 0;
			if (e) {
				const struct dso *t = objs[(e >> SYM_BITS) - 1];
				size_t k = e & ((1u << SYM_BITS) - 1);
				if (k < t->nsyms && ST_TYPE(t->syms[k].st_info) != STT_GNU_IFUNC)
					v = t->syms[k].st_value;
			}
			m->stv[i] = v;
		}
	}
	/* objects mapped again where they were last time (mmap often picks
	 * the same place): the addresses are still right */
	size_t moved = 0;
	for (size_t i = 0; i < m->nids; i++) {
		moved |= m->bases[i] != (uintptr_t)objs[i]->base;
		m->bases[i] = (uintptr_t)objs[i]->base;
	}
	if (!moved)
		return 1;
	for (size_t i = 0; i < m->nent; i++)
		m->val[i] = m->stv[i] ? (size_t)objs[(m->ent[i] >> SYM_BITS) - 1]->base + m->stv[i] : 0;
	return 1;
}

/* Decoding p's hash tables (dso.c) again: when a memo of the same file is
 * kept, what the checked decoding gave then, without walking the buckets
 * again. 1 when it did. */
hidden int qb_memo_hashes(struct dso *p)
{
	if (qb.no_memo || !kept)
		return 0;
	for (struct qb_memo *m = kept; m; m = m->next) {
		if (!qb_fileid_eq(&m->self, &p->id))
			continue;
		if (m->h.hash != p->dyn.hash || m->h.gnu_hash != p->dyn.gnu_hash || !m->h.nsyms)
			return 0;
		p->nsyms = m->h.nsyms;
		if (p->dyn.hash)
			p->hashtab = qb_laddr(p, p->dyn.hash);
		if (p->dyn.gnu_hash) {
			p->ghashtab = qb_laddr(p, p->dyn.gnu_hash);
			p->gh_nbuckets = m->h.nbuckets;
			p->gh_bloom_mask = m->h.bloom_mask;
			p->gh_shift = m->h.shift;
			p->gh_symoffset = m->h.symoffset;
			p->gh_bloom = qb_laddr(p, m->h.bloom);
			p->gh_buckets = qb_laddr(p, m->h.buckets);
			p->gh_chain = (const uint32_t *)qb_laddr(p, m->h.chain) - m->h.symoffset;
		}
		return 1;
	}
	return 0;
}

/* p is mapped and nothing has read it yet: when a memo of the same file
 * is kept, the pages its relocations will write are copied now, in one
 * call per run, the page the bss clearing writes with them. A page read
 * first and written later costs two faults, the second also a flush of
 * the translation caches; one written first costs one; one populated
 * with others costs the least. */
hidden void qb_memo_prefault(struct dso *p)
{
	if (qb.no_memo || !kept)
		return;
	for (struct qb_memo *m = kept; m; m = m->next) {
		if (!qb_fileid_eq(&m->self, &p->id))
			continue;
		for (size_t i = 0; i < m->nruns; i++)
			madvise(p->base + (size_t)m->runs[2 * i] * __libc.page_size,
				(size_t)m->runs[2 * i + 1] * __libc.page_size, MADV_POPULATE_WRITE);
		p->prefaulted = 1;
		return;
	}
}

/* Before p's relocations: reuse a memo of the same file in the same
 * scope (1), or start recording one (2); 0: neither. */
hidden int qb_memo_begin(struct dso *p, struct qb_memo_use *u)
{
	memset(u, 0, sizeof *u);
	if (qb.no_memo || !p->runtime || p->is_ldso || p->is_main ||
	    (qb.debug & (QB_DBG_BINDINGS | QB_DBG_DIRECT)))
		return 0;
	struct qb_fileid self;
	id_of(p, &self);
	struct qb_memo *m = take_kept(&self);
	memo_free(p->memo);
	p->memo = 0;
	size_t n;
	struct dso **objs = scope_of(p, &n);
	if (!objs) {
		memo_free(m);
		return 0;
	}
	__libc_free(pending);
	pending = objs;
	u->objs = objs;
	u->nobjs = n;
	/* (an image that needs no relocation needs no addresses either) */
	if (m && same_scope(m, objs, n) &&
	    ((u->settle = qb_reopen_fits(p, m->serial, objs, n)) || memo_values(m, objs))) {
		/* The same bindings pin the same objects, once each. */
		for (size_t i = 0; i < m->nused; i++) {
			struct dso *d = objs[m->used[i]];
			if (d->runtime && d != p)
				qb_pin_binding(p, d);
		}
		p->memo = m;
		u->ent = m->ent;
		u->nent = m->nent;
		u->serial = m->serial;
		for (size_t i = 0; !p->prefaulted && i < m->nruns; i++)
			madvise(p->base + (size_t)m->runs[2 * i] * __libc.page_size,
				(size_t)m->runs[2 * i + 1] * __libc.page_size, MADV_POPULATE_WRITE);
		qb.stats.memo_objs++;
		return 1;
	}
	memo_free(m);
	m = __libc_calloc(1, sizeof *m);
	struct qb_fileid *ids = __libc_malloc((n ? n : 1) * sizeof *ids);
	if (!m || !ids) {
		__libc_free(m);
		__libc_free(ids);
		__libc_free(objs);
		pending = u->objs = 0;
		return 0;
	}
	m->self = self;
	m->flags = switches();
	m->serial = u->serial = ++serials;
	m->h.hash = p->dyn.hash;
	m->h.gnu_hash = p->dyn.gnu_hash;
	m->h.nsyms = p->nsyms;
	if (p->gh_bloom) {
		m->h.bloom = (size_t)((const unsigned char *)p->gh_bloom - p->base);
		m->h.buckets = (size_t)((const unsigned char *)p->gh_buckets - p->base);
		m->h.chain = (size_t)((const unsigned char *)(p->gh_chain + p->gh_symoffset) - p->base);
		m->h.nbuckets = p->gh_nbuckets;
		m->h.bloom_mask = p->gh_bloom_mask;
		m->h.shift = p->gh_shift;
		m->h.symoffset = p->gh_symoffset;
	}
	m->ids = ids;
	m->nids = n;
	for (size_t i = 0; i < n; i++) {
		id_of(objs[i], &ids[i]);
		objs[i]->memo_pos = (uint32_t)i + 1;
	}
	p->memo = m;
	u->rec = m;
	return 2;
}

/* A binding of reference symi made by the general path. */
hidden void qb_memo_record(struct qb_memo_use *u, size_t symi, const struct symdef *d)
{
	struct qb_memo *m = u->rec;
	uint32_t pos = d->dso->memo_pos;
	size_t defi = (size_t)(d->sym - d->dso->syms);
	if (m->broken || !pos || pos > POS_MAX || defi >= (1u << SYM_BITS) ||
	    d->dso->memo_pos > u->nobjs || u->objs[pos - 1] != d->dso)
		return;
	if (symi >= m->capent) {
		size_t cap = m->capent ? 2 * m->capent : 256;
		while (cap <= symi)
			cap *= 2;
		uint32_t *e = __libc_realloc(m->ent, cap * sizeof *e);
		if (!e) {
			m->broken = 1;
			return;
		}
		memset(e + m->capent, 0, (cap - m->capent) * sizeof *e);
		m->ent = e;
		m->capent = cap;
	}
	m->ent[symi] = pos << SYM_BITS | (uint32_t)defi;
	if (symi >= m->nent)
		m->nent = symi + 1;
}

/* The binding the hinted loop makes for reference symi of p, when its
 * hint holds (the conditions of qb_bind_hinted, without its counting). */
static const Sym *hinted_def(struct dso *p, size_t symi, struct dso **to)
{
	const Syminfo *si = &p->syminfo[symi];
	size_t k = si->si_boundto;
	if (!(si->si_flags & SYMINFO_FLG_DIRECT) || k >= p->nby_dynidx || !p->hint_ok[k])
		return 0;
	struct dso *t = p->by_dynidx[k];
	const Sym *s = qb_hint_def(p, symi, t);
	if (!s || (qb.ninterposers && qb_ibloom_maybe(p->pre_gnu[symi])) ||
	    (t->syminfo && (t->syminfo[s - t->syms].si_flags & SYMINFO_FLG_NOEXTDIRECT)))
		return 0;
	*to = t;
	return s;
}

/* The same for a reference the hinted loop binds by the value linkopt
 * recorded (hintloop.c, fast_run with VALUES), without reading the target: *val is
 * the address it binds to. */
static const Sym *valued_def(struct dso *p, size_t symi, struct dso **to, size_t *val)
{
	const Syminfo *si = &p->syminfo[symi];
	size_t k = si->si_boundto;
	if (!p->values || !p->values[symi] || !(si->si_flags & SYMINFO_FLG_DIRECT) ||
	    k >= p->nby_dynidx || !p->hint_ok[k] || !p->fast_tgt[k].n)
		return 0;
	struct dso *t = p->by_dynidx[k];
	if (p->hints[symi] >= t->nsyms || (qb.ninterposers && qb_ibloom_maybe(p->pre_gnu[symi])))
		return 0;
	*to = t;
	*val = (size_t)t->base + p->values[symi];
	return t->syms + p->hints[symi];
}

/* The hinted loop bound p's references out of the memo's sight: each one
 * whose place holds exactly what its hinted definition gives is recorded
 * as bound to it. (A REL place's addend is gone: such word relocations
 * stay with the general path.) */
static void readback(struct dso *p, struct qb_memo_use *u, size_t vaddr, size_t size, int rela)
{
	if (!vaddr || !size)
		return;
	struct qb_memo *m = u->rec;
	const size_t ent = rela ? 3 : 2;
	const size_t *r = qb_laddr(p, vaddr);
	for (size_t n = size / (ent * sizeof(size_t)); n; n--, r += ent) {
		size_t off = r[0], symi = QB_R_SYM(r[1]);
		int kind = qb_rel_kind(QB_R_TYPE(r[1]));
		if ((kind != RK_WORD && kind != RK_GOT && kind != RK_PLT) || (!rela && kind == RK_WORD) ||
		    !symi || symi >= p->nsyms || (symi < m->capent && m->ent[symi]) ||
		    !qb_writable(p, off, sizeof(size_t)))
			continue;
		struct dso *t;
		size_t want;
		const Sym *s = valued_def(p, symi, &t, &want);
		if (!s) {
			s = hinted_def(p, symi, &t);
			if (!s || ST_TYPE(s->st_info) == STT_GNU_IFUNC)
				continue;
			want = (size_t)t->base + s->st_value;
		}
		want += rela ? r[2] : 0;
		if (*(const size_t *)(p->base + off) != want)
			continue;
		struct symdef d = { (Sym *)s, t };
		qb_memo_record(u, symi, &d);
	}
}

#define MAX_RUNS 32

static void mark_pages(struct dso *p, size_t vaddr, size_t size, int rela, size_t lo, size_t n,
	unsigned shift, unsigned char *bits)
{
	if (!vaddr || !size)
		return;
	const size_t ent = rela ? 3 : 2;
	const size_t *r = qb_laddr(p, vaddr);
	for (size_t k = size / (ent * sizeof(size_t)); k; k--, r += ent) {
		size_t pgi = (r[0] >> shift) - lo;
		if (pgi < n)
			bits[pgi / 8] |= 1 << pgi % 8;
	}
}

/* The pages of p's first writable range its relocation tables write, as
 * runs: a reuse faults them in with one call each (a fault apiece costs
 * more, the more so in a virtual machine) before it writes them. Pages no
 * relocation writes are left alone, so the memory used is the same. */
static void record_runs(struct dso *p, struct qb_memo *m)
{
	const size_t pg = __libc.page_size;
	const unsigned shift = (unsigned)__builtin_ctzl(pg);
	if (!p->nwr || p->wr_hi[0] <= p->wr_lo[0] || (p->dyn.have & QB_HAVE_TEXTREL) ||
	    (p->dyn.flags & DF_TEXTREL))
		return;
	size_t lo = p->wr_lo[0] >> shift, hi = (p->wr_hi[0] + pg - 1) >> shift;
	if (hi <= lo || hi - lo > ((size_t)1 << 24))
		return;
	size_t n = hi - lo;
	unsigned char *bits = __libc_calloc((n + 7) / 8, 1);
	uint32_t *runs = __libc_malloc(2 * MAX_RUNS * sizeof *runs);
	if (!bits || !runs) {
		__libc_free(bits);
		__libc_free(runs);
		return;
	}
	mark_pages(p, p->dyn.rela, p->dyn.relasz, 1, lo, n, shift, bits);
	mark_pages(p, p->dyn.rel, p->dyn.relsz, 0, lo, n, shift, bits);
	mark_pages(p, p->dyn.jmprel, p->dyn.pltrelsz, p->dyn.pltrel == DT_RELA, lo, n, shift, bits);
	size_t nr = 0;
	for (size_t k = 0; k < n && nr < MAX_RUNS; k++) {
		if (!(bits[k / 8] >> k % 8 & 1))
			continue;
		size_t e = k;
		while (e + 1 < n && bits[(e + 1) / 8] >> (e + 1) % 8 & 1)
			e++;
		runs[2 * nr] = (uint32_t)(lo + k);
		runs[2 * nr + 1] = (uint32_t)(e - k + 1);
		nr++;
		k = e;
	}
	__libc_free(bits);
	m->runs = runs;
	m->nruns = nr;
}

/* After p's relocations. */
hidden void qb_memo_end(struct dso *p, struct qb_memo_use *u)
{
	struct qb_memo *m = u->rec;
	if (m && u->readback && p->syminfo && p->hints && p->pre_gnu) {
		readback(p, u, p->dyn.rela, p->dyn.relasz, 1);
		readback(p, u, p->dyn.rel, p->dyn.relsz, 0);
		readback(p, u, p->dyn.jmprel, p->dyn.pltrelsz, p->dyn.pltrel == DT_RELA);
	}
	if (m) {
		for (size_t i = 0; i < u->nobjs; i++)
			u->objs[i]->memo_pos = 0;
		/* the places bound to, for the pins of a reuse */
		unsigned char *seen = __libc_calloc(u->nobjs ? u->nobjs : 1, 1);
		size_t nused = 0;
		if (!seen)
			m->broken = 1;
		for (size_t i = 0; seen && i < m->nent; i++)
			if (m->ent[i] && !seen[(m->ent[i] >> SYM_BITS) - 1]++)
				nused++;
		m->used = seen ? __libc_malloc((nused ? nused : 1) * sizeof *m->used) : 0;
		if (seen && m->used) {
			for (size_t i = 0; i < u->nobjs; i++)
				if (seen[i])
					m->used[m->nused++] = (uint32_t)i;
		} else {
			m->broken = 1;
		}
		__libc_free(seen);
		record_runs(p, m);
		m->complete = 1;
		qb.stats.memo_recorded++;
	}
	(void)p;
	__libc_free(u->objs);
	pending = u->objs = 0;
}

/* LD_DIRECT_VERIFY: the standard lookup checks each memo binding; 0 when
 * it disagrees (reported; the general path then binds). */
static __attribute__((noinline)) int verified(struct dso *p, const struct qb_memo_use *u,
	size_t symi)
{
	uint32_t e = u->ent[symi];
	const struct dso *t = u->objs[(e >> SYM_BITS) - 1];
	const Sym *s = t->syms + (e & ((1u << SYM_BITS) - 1));
	const Sym *ref = p->syms + symi;
	if (ref->st_name >= p->dyn.strsz)
		return 0;
	const char *name = p->strings + ref->st_name;
	struct qb_verreq vr;
	struct qb_symreq r;
	qb_symreq_for(&r, p, symi, name, qb_verreq_of(p, symi, &vr) ? &vr : 0);
	struct symdef std = qb_lookup(&r, 0, p->reloc_root);
	if (std.sym == s && std.dso == t)
		return 1;
	qb.verify_diffs++;
	qb_dbg("verify: %s: %s: binding memo gives %s, standard lookup gives %s", p->name, name,
		t->name, std.sym ? std.dso->name : "<undefined>");
	return 0;
}

/* Relocation types (below 64) of the kinds a reuse binds: word, GOT and
 * PLT; and of word alone (a REL word's addend is in its place). */
static uint64_t plain_types, word_types;

static void plain_types_init(void)
{
	for (unsigned t = 0; t < 64; t++) {
		int k = qb_rel_kind(t);
		if (k == RK_WORD || k == RK_GOT || k == RK_PLT)
			plain_types |= (uint64_t)1 << t;
		if (k == RK_WORD)
			word_types |= (uint64_t)1 << t;
	}
}

/* One table: rela is a constant in each instance, so that the loop
 * carries no test of it. */
static inline __attribute__((always_inline)) void memo_loop(struct dso *p,
	const struct qb_memo_use *u, const size_t *r, size_t n, int rela, qb_slow_reloc_fn slow,
	void *ctx, uint32_t *cnt)
{
	const size_t ent = rela ? 3 : 2, W = sizeof(size_t);
	const size_t *const val = p->memo->val;
	const size_t nval = p->memo->nent;
	unsigned char *const base = p->base;
	/* masks one register wide: on i386 two 64-bit masks take four of
	 * seven registers and the loop spills; a type beyond the width takes
	 * the general path below */
	const size_t bits = 8 * sizeof(size_t);
	const size_t plain = (size_t)plain_types, word = (size_t)word_types;
	/* the first writable range, tested inline; the others through
	 * qb_writable */
	const size_t wlo = p->nwr ? p->wr_lo[0] : 1, whi = p->nwr ? p->wr_hi[0] : 0;
	const size_t wspan = whi > wlo && whi - wlo >= W ? whi - wlo - W : 0;
	const size_t *const end = r + n * ent;
	while (r < end) {
		/* no call in this loop: what it needs stays in registers */
		for (; r < end; r += ent) {
			const size_t off = r[0], info = r[1], symi = QB_R_SYM(info);
			const unsigned type = QB_R_TYPE(info);
			size_t v;
			if (type >= bits || !(plain >> type & 1) || symi >= nval || !(v = val[symi]) ||
			    off - wlo > wspan)
				break;
			size_t *where = (size_t *)(base + off);
			*where = v + (rela ? r[2] : word >> type & 1 ? *where : 0);
			cnt[type]++;
		}
		if (r == end)
			break;
		const size_t off = r[0], info = r[1], symi = QB_R_SYM(info);
		const unsigned type = QB_R_TYPE(info);
		size_t v;
		if (type < bits && (plain >> type & 1) && symi < nval && (v = val[symi]) &&
		    qb_writable(p, off, W)) {
			size_t *where = (size_t *)(base + off);
			*where = v + (rela ? r[2] : word >> type & 1 ? *where : 0);
			cnt[type]++;
		} else {
			slow(p, ctx, info, off, rela ? r[2] : 0, rela);
		}
		r += ent;
	}
	(void)u;
}

/* LD_DIRECT_VERIFY: each binding the memo would make is checked first. */
static __attribute__((noinline)) void verify_loop(struct dso *p, const struct qb_memo_use *u,
	const size_t *r, size_t n, int rela, qb_slow_reloc_fn slow, void *ctx, uint32_t *cnt)
{
	const size_t ent = rela ? 3 : 2;
	for (; n; n--, r += ent) {
		const size_t off = r[0], info = r[1], symi = QB_R_SYM(info);
		const unsigned type = QB_R_TYPE(info);
		size_t v;
		if (type < 64 && (plain_types >> type & 1) && symi < p->memo->nent &&
		    (v = p->memo->val[symi]) && qb_writable(p, off, sizeof(size_t)) &&
		    verified(p, u, symi)) {
			size_t *where = (size_t *)(p->base + off);
			*where = v + (rela ? r[2] : word_types >> type & 1 ? *where : 0);
			cnt[type]++;
		} else {
			slow(p, ctx, info, off, rela ? r[2] : 0, rela);
		}
	}
}

/* The relocation loop of a reuse: the plain symbolic kinds whose memo
 * entry names a plain definition are bound here; everything else goes
 * to slow, the general path. */
hidden void qb_memo_relocs(struct dso *p, struct qb_memo_use *u, const size_t *r, size_t n,
	int rela, qb_slow_reloc_fn slow, void *ctx)
{
	if (!plain_types)
		plain_types_init();
	uint32_t cnt[64] = { 0 };
	if (qb.verify)
		verify_loop(p, u, r, n, rela, slow, ctx, cnt);
	else if (rela)
		memo_loop(p, u, r, n, 1, slow, ctx, cnt);
	else
		memo_loop(p, u, r, n, 0, slow, ctx, cnt);
	/* counted by kind, as the general path counts */
	size_t done = 0;
	for (unsigned t = 0; t < 64; t++)
		if (cnt[t]) {
			qb.stats.bykind[qb_rel_kind(t)] += cnt[t];
			done += cnt[t];
		}
	qb.stats.relocs += done;
	qb.stats.memo_binds += done;
}

/* p leaves the loader: its memo, when complete, is kept for a reload. */
hidden void qb_memo_unload(struct dso *p, int keep)
{
	struct qb_memo *m = p->memo;
	p->memo = 0;
	if (!m)
		return;
	size_t sz = memo_size(m);
	if (!keep || qb.no_memo || !m->complete || m->broken || sz > MEMO_MAX_BYTES) {
		memo_free(m);
		return;
	}
	while (kept && (nkept >= MEMO_MAX_KEPT || kept_bytes + sz > MEMO_MAX_BYTES)) {
		struct qb_memo *old = kept;
		kept = old->next;
		nkept--;
		kept_bytes -= memo_size(old);
		memo_free(old);
	}
	struct qb_memo **pp = &kept;
	while (*pp)
		pp = &(*pp)->next;
	*pp = m;
	nkept++;
	kept_bytes += sz;
}
