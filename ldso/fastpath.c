/* The fast paths fed by linkopt's tables: direct binding through
 * DT_SYMINFO, precomputed name hashes, and the interposer check that keeps
 * direct binding correct. Every table is validated once, when its object
 * is loaded; an invalid one is ignored (with an LD_DEBUG note), never
 * trusted. */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "fastpath.h"
#include "globaltab.h"
#include "elfhash.h"

static void note(struct dso *p, const char *what)
{
	if (qb.debug & (QB_DBG_DIRECT | QB_DBG_LIBS | QB_DBG_STATS))
		qb_dbg("ignoring %s of %s: it fails validation", what, p->name);
}

/* linkopt's segment: the PT_LOAD holding the table, above every other
 * one (linkopt appends it), clear of RELRO and TLS, and writable only
 * when it holds .dynamic (the one reason linkopt makes it writable). It
 * holds nothing but tables and .dynamic, so once the object is relocated
 * all of it but .dynamic can go (qb_release_tables). */
static const Phdr *table_segment(const struct dso *p)
{
	const Phdr *seg = 0, *dyn = 0;
	size_t t = p->dyn.qb_table, tsz = p->dyn.qb_tablesz, top = 0;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type == PT_DYNAMIC)
			dyn = ph;
		if (ph->p_type != PT_LOAD)
			continue;
		if (!seg && t >= ph->p_vaddr && tsz <= ph->p_memsz && t - ph->p_vaddr <= ph->p_memsz - tsz)
			seg = ph;
		else if (ph->p_vaddr + ph->p_memsz > top)
			top = ph->p_vaddr + ph->p_memsz;
	}
	if (!seg || seg->p_vaddr < top || seg->p_filesz > seg->p_memsz)
		return 0;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if ((ph->p_type == PT_GNU_RELRO || ph->p_type == PT_TLS) && ph->p_memsz &&
		    ph->p_vaddr < seg->p_vaddr + seg->p_memsz && seg->p_vaddr < ph->p_vaddr + ph->p_memsz)
			return 0;
	}
	if (seg->p_flags & PF_W) {
		if (!dyn || dyn->p_vaddr < seg->p_vaddr || dyn->p_memsz > seg->p_memsz ||
		    dyn->p_vaddr - seg->p_vaddr > seg->p_memsz - dyn->p_memsz)
			return 0;
	}
	return seg;
}

/* Relocations may not write linkopt's segment: nothing in it is a
 * relocation target, and its pages are given back as clean copies of the
 * file once the object is relocated (a value written there would not
 * stay). Only the program's .dynamic stays writable: the loader writes its
 * DT_DEBUG through the same test, and keeps its pages. Decided when the
 * object is relocated, once it is known whether it is the program. */
static void seal_table_segment(struct dso *p, const Phdr *seg)
{
	const Phdr *dyn = 0;
	for (size_t i = 0; i < p->phnum; i++)
		if (p->phdr[i].p_type == PT_DYNAMIC)
			dyn = &p->phdr[i];
	unsigned k = 0;
	for (unsigned i = 0; i < p->nwr; i++) {
		p->wr_lo[k] = p->wr_lo[i];
		p->wr_hi[k] = p->wr_hi[i];
		if (p->wr_lo[i] == seg->p_vaddr && p->wr_hi[i] == seg->p_vaddr + seg->p_memsz) {
			if (!p->is_main || !dyn)
				continue;
			p->wr_lo[k] = dyn->p_vaddr;
			p->wr_hi[k] = dyn->p_vaddr + dyn->p_memsz;
		}
		k++;
	}
	p->nwr = (unsigned char)k;
}

hidden void qb_fast_setup(struct dso *p)
{
	const struct qb_dyninfo *d = &p->dyn;
	if (d->qb_table) {
		const void *tab = qb_laddr(p, d->qb_table);
		if (qb_in_image(p, d->qb_table, d->qb_tablesz) &&
		    qb_table_valid(tab, d->qb_tablesz, (uint32_t)p->nsyms)) {
			if (!(d->have & QB_HAVE_TEXTREL) && !(d->flags & DF_TEXTREL))
				p->tabseg = table_segment(p);
			if (!qb.no_hashvals) {
				p->pre_gnu = qb_table_gnu(tab);
				p->pre_sysv = qb_table_sysv(tab);
			}
			p->self_id = qb_table_self_id(tab);
			p->std_known = (unsigned char)qb_table_std_relocs(tab, &p->std_relocs);
			/* linkopt says none of its definitions is no-direct:
			 * its DT_SYMINFO need not be read to know */
			if (((const struct qb_table_hdr *)tab)->flags & QB_TF_NOEXTNONE)
				p->noext_known = 1;
			/* the identities also name a module's parent */
			if (!qb.no_direct)
				p->needed_ids = qb_table_needed(tab, &p->nneeded_ids);
			if (!qb.no_direct && !qb.no_hints) {
				p->hints = qb_table_hints(tab);
				p->values = qb_table_values(tab);
				if (p->pre_gnu)
					p->definers = qb_table_definers(tab);
			}
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
	size_t b1 = qb_ibloom_bit(h, QB_IBLOOM_K1, qb.ibloom_mask);
	size_t b2 = qb_ibloom_bit(h, QB_IBLOOM_K2, qb.ibloom_mask);
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
		p->by_dynidx = __libc_calloc(n, sizeof *p->by_dynidx + sizeof *p->fast_tgt + 1);
		if (!p->by_dynidx)
			return;
		p->fast_tgt = (struct qb_fast_tgt *)(p->by_dynidx + n);
		p->hint_ok = (unsigned char *)(p->fast_tgt + n);
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

/* The interposers' exported names as GNU hash values, when there are few
 * enough to hold against each direct target once (ip_nhash > IP_HASHES:
 * too many, every hinted relocation asks the bloom filter instead);
 * ip_gen counts the changes of the interposer list. */
#define IP_HASHES 64
static uint32_t ip_hash[IP_HASHES];
static size_t ip_nhash;
static unsigned ip_gen = 1;

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
	/* at least 32 bits a name: the first bit alone rejects almost
	 * every name the hinted loop asks about */
	size_t bits = 1024;
	while (bits < 32 * names && bits < ((size_t)1 << 16))
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
	ip_nhash = 0;
	ip_gen++;
	for (size_t k = 0; k < qb.ninterposers; k++) {
		struct dso *p = qb.interposers[k];
		for (size_t i = 1; i < p->nsyms; i++)
			if (exported(p, i)) {
				uint32_t h = p->pre_gnu ? p->pre_gnu[i] : qb_gnu_hash(p->strings + p->syms[i].st_name);
				bloom_add(h);
				if (ip_nhash < IP_HASHES)
					ip_hash[ip_nhash] = h;
				ip_nhash++;
			}
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
	if (target->syminfo && (!target->noext_known || target->noext_any) &&
	    (target->syminfo[s - target->syms].si_flags & SYMINFO_FLG_NOEXTDIRECT)) {
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

/* The definition the standard lookup finds for reference symi of p, by
 * the definer linkopt recorded (docs/FORMAT.md 2.4), without a name: the
 * first object of the global scope, in load order, that is the definer
 * (its identity, so the definition at the hint is the one linkopt saw)
 * is the answer when every object before it lacks the name, which its
 * bloom filter proves for the name's hash (a "maybe", or an object
 * without DT_GNU_HASH, leaves the question to the standard lookup). The
 * objects before the definer are asked as the lookup asks them, so
 * preloaded objects, interposers and libraries added since linkopt ran
 * are honoured; a definer not in the global scope decides nothing.
 * With the global table in use (globaltab.c) one probe of it replaces
 * the walk: the first entry of the name's hash in scope order must be
 * the definition at the hint. Either way the definer's hash chain must
 * hold the name's hash at the hint, as for a definition hint (docs/
 * FORMAT.md 2.1), and the definition be one the lookup's own test
 * accepts (linkopt records no other; a damaged table may).
 * 0: the standard lookup must decide. */
static int is_definer(const struct dso *x, const struct dso *p, uint64_t want)
{
	return want ? x->self_id == want : x == p;
}

static struct dso *walk_to_definer(struct dso *p, uint64_t want, uint32_t h)
{
	for (struct dso *x = qb.head; x; x = x->next) {
		if (!x->global)
			continue;
		if (is_definer(x, p, want))
			return x;
		qb.stats.probes++;
		if (!x->gh_bloom || qb_gnu_bloom_maybe(x, h))
			return 0;
	}
	return 0;
}

hidden int qb_scope_def(struct dso *p, size_t symi, struct symdef *out)
{
	uint32_t k = p->definers[symi] - 1, hint = p->hints[symi];
	if (k >= p->nneeded_ids || p->needed_ids[k].dynidx != QB_NEEDED_SCOPE || !hint)
		return 0;
	const struct qb_needed_id *e = &p->needed_ids[k];
	uint64_t want = (uint64_t)e->id[1] << 32 | e->id[0];
	uint32_t h = p->pre_gnu[symi], sym = hint;
	struct dso *x;
	if (qb_gtab_on()) {
		qb.stats.probes++;
		x = qb_gtab_first(h, &sym);
		if (!x || sym != hint || !is_definer(x, p, want))
			return 0;
	} else if (!(x = walk_to_definer(p, want, h))) {
		return 0;
	}
	/* qb_hint_def's guard for a GNU-hashed target, with what it would
	 * read again already in hand */
	if (!x->gh_bloom || hint < x->gh_symoffset || hint >= x->nsyms || (x->gh_chain[hint] | 1) != (h | 1))
		return 0;
	Sym *s = x->syms + hint;
	if (!qb_def_accepted(s->st_shndx, s->st_info, s->st_value))
		return 0;
	out->sym = s;
	out->dso = x;
	return 1;
}

/* Does t define a symbol that external references may not bind to
 * directly? Asked once per object; only definitions the GNU hash table
 * holds can be hinted. */
static int noextdirect_any(struct dso *t)
{
	if (!t->noext_known) {
		uint64_t acc = 0, w;
		size_t i = t->gh_symoffset, n = t->nsyms;
		if (t->syminfo) {
			const unsigned char *e = (const unsigned char *)t->syminfo;
			for (; i + 2 <= n; i += 2) {
				memcpy(&w, e + i * sizeof(Syminfo), sizeof w);
				acc |= w;
			}
			if (i < n)
				acc |= (uint64_t)t->syminfo[i].si_flags << 16;
		}
		/* entries are (si_boundto, si_flags) pairs of 16-bit words */
		t->noext_any = !!(acc & ((uint64_t)SYMINFO_FLG_NOEXTDIRECT << 16 |
			(uint64_t)SYMINFO_FLG_NOEXTDIRECT << 48));
		t->noext_known = 1;
	}
	return t->noext_any;
}

/* Adds to out[*n] (at most max) the symbols of t whose name has GNU hash
 * h, by its bloom filter and the hash chain of h's bucket; returns 0 when
 * there are more than max. */
static int gnu_same_hash(const struct dso *t, uint32_t h, uint32_t *out, size_t *n, size_t max)
{
	if (!qb_gnu_bloom_maybe(t, h))
		return 1;
	for (uint32_t i = t->gh_buckets[h % t->gh_nbuckets]; i && i < t->nsyms; i++) {
		if ((t->gh_chain[i] | 1) == (h | 1)) {
			if (*n == max)
				return 0;
			out[(*n)++] = i;
		}
		if (t->gh_chain[i] & 1)
			break;
	}
	return 1;
}

/* The definitions of t an interposer may take (same GNU hash as one of
 * their names), when there are at most two: references hinted to them go
 * to the general path, all others need no interposer check. A program
 * exporting _init and _fini, which every library defines, is the usual
 * case. Returns 0 when every reference to t must ask the bloom filter. */
static int interposed_defs(struct dso *t, struct qb_fast_tgt *f)
{
	if (ip_nhash > IP_HASHES)
		return 0;
	if (t->ip_gen != ip_gen) {
		size_t n = 0;
		int ok = 1;
		t->ip_def[0] = t->ip_def[1] = 0;
		for (size_t k = 0; k < ip_nhash && ok; k++)
			ok = gnu_same_hash(t, ip_hash[k], t->ip_def, &n, 2);
		t->ip_many = !ok;
		t->ip_gen = ip_gen;
	}
	for (int k = 0; k < 2; k++)
		if (t->ip_def[k])
			f->ip_def[k] = t->ip_def[k] - f->lo;
	return !t->ip_many;
}

hidden int qb_fast_prepare(struct dso *p)
{
	/* called once, before any relocation of p is applied */
	if (p->tabseg)
		seal_table_segment(p, p->tabseg);
	if (!p->syminfo || !p->hints || !p->pre_gnu || !p->fast_tgt || p->is_ldso ||
	    !p->nwr || p->wr_hi[0] - p->wr_lo[0] < sizeof(size_t) || p->nsyms > 0xffffffff ||
	    p->nby_dynidx > 0xffff || qb_bindings_watched())
		return 0;
	/* The loop takes a symbol index below nsyms for a reference, so
	 * entry 0 must not look like one (linkopt leaves it empty). */
	if (qb_syminfo_word(&p->syminfo[0]) - QB_DIRECT_WORD < p->nby_dynidx)
		return 0;
	int any = 0;
	p->fast_careful = 0;
	/* No reference bound directly (linkopt's count: every symbolic
	 * relocation is left to the loader): no target is asked anything,
	 * and the loop still applies the relative relocations. */
	if (p->std_known && qb_nonrelative_relocs(p) <= p->std_relocs) {
		memset(p->fast_tgt, 0, p->nby_dynidx * sizeof *p->fast_tgt);
		return 1;
	}
	for (size_t i = 0; i < p->nby_dynidx; i++) {
		struct dso *t = p->hint_ok[i] ? p->by_dynidx[i] : 0;
		struct qb_fast_tgt *f = &p->fast_tgt[i];
		*f = (struct qb_fast_tgt){ .ip_def = { UINT32_MAX, UINT32_MAX } };
		if (!t || !t->gh_bloom || t->nsyms <= t->gh_symoffset || t->nsyms > 0xffffffff ||
		    noextdirect_any(t))
			continue;
		/* no qb_pin_binding: a DT_NEEDED library is in p's own
		 * scope, which it never pins */
		f->lo = t->gh_symoffset;
		f->n = (uint32_t)(t->nsyms - t->gh_symoffset);
		f->chain = t->gh_chain + f->lo;
		f->syms = t->syms + f->lo;
		f->base = (size_t)t->base;
		if (qb.ninterposers) {
			if (!interposed_defs(t, f))
				p->fast_careful |= FAST_BLOOM;
			if ((f->ip_def[0] & f->ip_def[1]) != UINT32_MAX)
				p->fast_careful |= FAST_IPDEF;
		}
		any = 1;
	}
	return any;
}

/* Once an object is relocated, its relocation tables are not read again
 * (a deferred PLT slot keeps its own copy of its entry) and its linkopt
 * tables only in rare cases (the interposer list rebuilt when it is an
 * interposer, a slow-path binding to one of its definitions): their pages
 * go back, so that the peak memory of a process does not carry them.
 * The pages are clean copies of the file (the loader never writes them),
 * so a later read faults them in again, unchanged. Only whole pages inside
 * a table, inside one loadable segment that is not writable (or, for
 * linkopt's segment, which is writable when it holds .dynamic, clear of
 * the dynamic section, RELRO and TLS) are released, and nothing of an
 * object with text relocations, whose pages the loader has written. */
/* Pages are given back in batches: on a virtual machine every TLB flush
 * traps to the hypervisor and costs the guest far more than the pages it
 * frees (office-100 with all tables, its 300 ranges one madvise each:
 * 116 ms of CPU; in batches of 64: 77 ms; the floor workload: 65 ms, 46
 * ms, and 44 ms giving nothing back).
 * process_madvise on the process itself (PIDFD_SELF, recent Linux) takes
 * a batch's ranges in one call and flushes once; a kernel or qemu-user
 * without it gets one madvise a range. Start-up objects never go away, so
 * their ranges wait for a full batch or the program, relocated last; an
 * object dlopen brings in gives its own back at once. */
#define PIDFD_SELF_PROCESS (-10001)
#ifndef ZAP_MAX
#define ZAP_MAX 64
#endif
struct zap {
	struct iovec v[ZAP_MAX];
	unsigned n;
};
static int no_batch;

static void zap_flush(struct zap *z)
{
	if (!z->n)
		return;
#ifdef SYS_process_madvise
	if (!no_batch) {
		size_t want = 0;
		for (unsigned i = 0; i < z->n; i++)
			want += z->v[i].iov_len;
		long r = syscall(SYS_process_madvise, PIDFD_SELF_PROCESS, z->v, z->n, MADV_DONTNEED, 0);
		if (r >= 0 && (size_t)r == want) {
			z->n = 0;
			return;
		}
		/* not there, or stopped short: madvise each range (giving a
		 * page back twice is harmless) */
		if (r < 0)
			no_batch = 1;
	}
#endif
	for (unsigned i = 0; i < z->n; i++)
		madvise(z->v[i].iov_base, z->v[i].iov_len, MADV_DONTNEED);
	z->n = 0;
}

static void zap_add(struct zap *z, void *a, size_t len)
{
	if (z->n == ZAP_MAX)
		zap_flush(z);
	z->v[z->n].iov_base = a;
	z->v[z->n++].iov_len = len;
}

static int overlaps(size_t lo, size_t hi, size_t a, size_t len)
{
	return len && a < hi && lo < a + len;
}

static void release_pages(struct zap *z, struct dso *p, size_t vaddr, size_t len, int writable_ok)
{
	size_t page = __libc.page_size;
	if (!len || vaddr + len < vaddr)
		return;
	size_t lo = (vaddr + page - 1) & -page, hi = (vaddr + len) & -page;
	if (hi <= lo)
		return;
	int inside = 0;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type == PT_LOAD && lo >= ph->p_vaddr && hi <= ph->p_vaddr + ph->p_memsz &&
		    hi - ph->p_vaddr <= ph->p_filesz && (writable_ok || !(ph->p_flags & PF_W)))
			inside = 1;
		if ((ph->p_type == PT_DYNAMIC || ph->p_type == PT_GNU_RELRO || ph->p_type == PT_TLS) &&
		    overlaps(lo, hi, ph->p_vaddr & -page, ph->p_memsz + (ph->p_vaddr & (page - 1))))
			return;
	}
	for (unsigned i = 0; i < p->nwr && !writable_ok; i++)
		if (overlaps(lo, hi, p->wr_lo[i] & -page, p->wr_hi[i] - (p->wr_lo[i] & -page)))
			return;
	if (inside)
		zap_add(z, p->base + lo, hi - lo);
}

/* Gives back the pages of [lo, hi) (page-aligned, inside linkopt's
 * segment seg) that share no page with another segment, RELRO, TLS or,
 * in the program, .dynamic. Each kept range splits the span in two; the
 * recursion is at most as deep as there are program headers. */
static void release_span(struct zap *z, struct dso *p, const Phdr *seg, size_t lo, size_t hi)
{
	size_t page = __libc.page_size;
	for (size_t i = 0; i < p->phnum && lo < hi; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph == seg || !ph->p_memsz || (ph->p_type != PT_LOAD && ph->p_type != PT_GNU_RELRO &&
		    ph->p_type != PT_TLS && (ph->p_type != PT_DYNAMIC || !p->is_main)))
			continue;
		size_t a = ph->p_vaddr & -page, b = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		if (b <= lo || a >= hi)
			continue;
		if (a > lo)
			release_span(z, p, seg, lo, a);
		lo = b;
	}
	if (lo < hi)
		zap_add(z, p->base + lo, hi - lo);
}

/* All of linkopt's segment: its tables, the hash and symbol tables linkopt
 * moved there, a library's .dynamic (read when the object was loaded; a
 * later reader faults the file's bytes in again); its first page too, and
 * its last when no zeroed tail (p_memsz > p_filesz) made it the loader's.
 * Other segments' pages and the program's .dynamic are kept
 * (release_span). */
static void release_table_segment(struct zap *z, struct dso *p, const Phdr *seg)
{
	size_t page = __libc.page_size;
	size_t lo = seg->p_vaddr & -page, end = seg->p_vaddr + seg->p_filesz;
	size_t hi = seg->p_memsz == seg->p_filesz ? (end + page - 1) & -page : end & -page;
	release_span(z, p, seg, lo, hi);
}

hidden void qb_release_tables(struct dso *p)
{
	if (p->is_ldso || (p->dyn.have & QB_HAVE_TEXTREL) || (p->dyn.flags & DF_TEXTREL))
		return;
	/* start-up objects stay: their ranges may wait for a fuller batch;
	 * the program is relocated last */
	static struct zap batch;
	struct zap local = { .n = 0 }, *z = p->runtime ? &local : &batch;
	release_pages(z, p, p->dyn.rela, p->dyn.relasz, 0);
	release_pages(z, p, p->dyn.rel, p->dyn.relsz, 0);
	release_pages(z, p, p->dyn.jmprel, p->dyn.pltrelsz, 0);
	/* what references to p will ask, while the pages are here */
	if (p->syminfo)
		noextdirect_any(p);
	if (p->tabseg) {
		release_table_segment(z, p, p->tabseg);
	} else {
		if (p->syminfo)
			release_pages(z, p, p->dyn.syminfo, p->nsyms * sizeof(Syminfo), 0);
		if (p->self_id || p->pre_gnu)
			release_pages(z, p, p->dyn.qb_table, p->dyn.qb_tablesz, 0);
	}
	if (z == &local || p == qb.main)
		zap_flush(z);
}
