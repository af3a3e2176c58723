/* The fast paths fed by linkopt's tables: direct binding through
 * DT_SYMINFO, precomputed name hashes, definition hints, scope definers,
 * and the interposer check that keeps direct binding correct; the "fast"
 * extension (ext.h). Every table is validated once, when its object is
 * loaded; an invalid one is ignored (with an LD_DEBUG note), never
 * trusted. */
#include <string.h>
#include "fast.h"
#include "globaltab.h"
#include "elfhash.h"

hidden struct qb_fast_global qb_fg;
hidden struct qb_fast_stats qb_fs;

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

static void fast_decoded(struct dso *p)
{
	const struct qb_dyninfo *d = &p->dyn;
	if (d->qb_table) {
		const void *tab = qb_laddr(p, d->qb_table);
		if (qb_in_image(p, d->qb_table, d->qb_tablesz) &&
		    qb_table_valid(tab, d->qb_tablesz, (uint32_t)p->nsyms)) {
			if (!(d->have & QB_HAVE_TEXTREL) && !(d->flags & DF_TEXTREL))
				fast_of(p)->tabseg = table_segment(p);
			if (!qb.env.no_hashvals) {
				fast_of(p)->pre_gnu = qb_table_gnu(tab);
				fast_of(p)->pre_sysv = qb_table_sysv(tab);
			}
			fast_of(p)->self_id = qb_table_self_id(tab);
			fast_of(p)->std_known = (unsigned char)qb_table_std_relocs(tab, &fast_of(p)->std_relocs);
			/* linkopt says none of its definitions is no-direct:
			 * its DT_SYMINFO need not be read to know */
			if (((const struct qb_table_hdr *)tab)->flags & QB_TF_NOEXTNONE)
				fast_of(p)->noext_known = 1;
			/* the identities also name a module's parent */
			if (!qb.env.no_direct)
				fast_of(p)->needed_ids = qb_table_needed(tab, &fast_of(p)->nneeded_ids);
			if (!qb.env.no_direct && !qb.env.no_hints) {
				fast_of(p)->hints = qb_table_hints(tab);
				fast_of(p)->values = qb_table_values(tab);
				if (fast_of(p)->pre_gnu)
					fast_of(p)->definers = qb_table_definers(tab);
				if (fast_of(p)->definers)
					fast_of(p)->scoped_known = (unsigned char)qb_table_scoped_relocs(tab,
						&fast_of(p)->scoped_relocs);
			}
			if (!qb.env.no_record && (((const struct qb_table_hdr *)tab)->flags & QB_TF_LAUNCH))
				fast_of(p)->launch_tab = tab;
		} else {
			note(p, "the quickbind table");
		}
	}
	if (d->syminfo && !qb.env.no_direct) {
		if (d->syminent == sizeof(Syminfo) && d->syminsz / sizeof(Syminfo) >= p->nsyms &&
		    qb_in_image(p, d->syminfo, p->nsyms * sizeof(Syminfo)))
			fast_of(p)->syminfo = qb_laddr(p, d->syminfo);
		else
			note(p, "DT_SYMINFO");
	}
	if (d->flags_1 & DF_1_INTERPOSE)
		fast_of(p)->interposer = 1;
	p->sym_sysv = fast_of(p)->pre_sysv;
}

static void bloom_add(uint32_t h)
{
	size_t b1 = qb_ibloom_bit(h, QB_IBLOOM_K1, qb_fg.ibloom_mask);
	size_t b2 = qb_ibloom_bit(h, QB_IBLOOM_K2, qb_fg.ibloom_mask);
	qb_fg.ibloom[b1 / QB_BLOOM_BITS] |= (size_t)1 << (b1 % QB_BLOOM_BITS);
	qb_fg.ibloom[b2 / QB_BLOOM_BITS] |= (size_t)1 << (b2 % QB_BLOOM_BITS);
}

static int exported(const struct dso *p, size_t i)
{
	const Sym *s = p->syms + i;
	return s->st_shndx && ST_BIND(s->st_info) != STB_LOCAL && s->st_name < p->dyn.strsz;
}

/* Record that dep satisfies p's DT_NEEDED entry at .dynamic index idx;
 * the entry's definition hints hold when dep's identity is the one
 * linkopt recorded for it. */
static void fast_needed(struct dso *p, size_t idx, struct dso *dep)
{
	if (!fast_of(p)->syminfo)
		return;
	if (!fast_of(p)->by_dynidx) {
		/* up to the last DT_NEEDED entry (linkers put them first) */
		size_t n = 0;
		for (size_t k = 0; ((Dyn *)p->dynv)[k].d_tag; k++)
			if (((Dyn *)p->dynv)[k].d_tag == DT_NEEDED)
				n = k + 1;
		fast_of(p)->by_dynidx = qb_calloc(n, sizeof *fast_of(p)->by_dynidx + sizeof *fast_of(p)->fast_tgt + 1);
		if (!fast_of(p)->by_dynidx)
			return;
		fast_of(p)->fast_tgt = (struct qb_hint_tgt *)(fast_of(p)->by_dynidx + n);
		fast_of(p)->hint_ok = (unsigned char *)(fast_of(p)->fast_tgt + n);
		fast_of(p)->nby_dynidx = n;
	}
	if (idx >= fast_of(p)->nby_dynidx)
		return;
	fast_of(p)->by_dynidx[idx] = dep;
	if (!fast_of(p)->hints || !fast_of(dep)->self_id)
		return;
	/* linkopt writes the entries in DT_NEEDED order, the order the
	 * entries are satisfied in: each search starts after the last match */
	for (uint32_t j = 0, n = fast_of(p)->nneeded_ids; j < n; j++) {
		uint32_t k = (fast_of(p)->needed_next + j) % n;
		const struct qb_needed_id *e = &fast_of(p)->needed_ids[k];
		if (e->dynidx == idx) {
			fast_of(p)->needed_next = k + 1;
			fast_of(p)->hint_ok[idx] = ((uint64_t)e->id[1] << 32 | e->id[0]) == fast_of(dep)->self_id;
			if (!fast_of(p)->hint_ok[idx] && (qb.debug & QB_DBG_DIRECT))
				qb_dbg("direct %s: %s changed since linkopt ran: no definition hints",
					p->name, dep->name);
			break;
		}
	}
}

/* Bring the interposer list and its bloom filter in line with the global
 * scope: every object that interposes and is global, in the scope's order. Called
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

/* The program and the preloaded objects interpose, and any object that
 * says so (DF_1_INTERPOSE). */
static int interposes(struct dso *p)
{
	return (fast_of(p)->interposer || p->is_main || p->preloaded) && p->global;
}

static void interposers_sync(void)
{
	size_t n = 0, names = 0;
	int same = 1;
	for (struct dso *p = qb.head; p; p = p->gnext)
		if (interposes(p)) {
			if (n >= qb_fg.ninterposers || qb_fg.interposers[n] != p)
				same = 0;
			n++;
		}
	if (same && n == qb_fg.ninterposers)
		return;
	for (struct dso *p = qb.head; p; p = p->gnext)
		if (interposes(p))
			for (size_t i = 1; i < p->nsyms; i++)
				names += exported(p, i);
	/* at least 32 bits a name: the first bit alone rejects almost
	 * every name the hinted loop asks about */
	size_t bits = 1024;
	while (bits < 32 * names && bits < ((size_t)1 << 16))
		bits <<= 1;
	if (n > icap) {
		struct dso **v = qb_realloc(qb_fg.interposers, n * sizeof *v);
		if (!v)
			qb_error("%s: out of memory for the interposer list", QB_LDSO_NAME);
		qb_fg.interposers = v;
		icap = n;
	}
	if (bits / QB_BLOOM_BITS > ibloom_words) {
		size_t *b = qb_calloc(bits / 8, 1);
		if (!b)
			qb_error("%s: out of memory for the interposer list", QB_LDSO_NAME);
		qb_free(qb_fg.ibloom);
		qb_fg.ibloom = b;
		ibloom_words = bits / QB_BLOOM_BITS;
	}
	qb_fg.ninterposers = 0;
	for (struct dso *p = qb.head; p; p = p->gnext)
		if (interposes(p))
			qb_fg.interposers[qb_fg.ninterposers++] = p;
	memset(qb_fg.ibloom, 0, ibloom_words * sizeof *qb_fg.ibloom);
	qb_fg.ibloom_mask = ibloom_words * QB_BLOOM_BITS - 1;
	ip_nhash = 0;
	ip_gen++;
	for (size_t k = 0; k < qb_fg.ninterposers; k++) {
		struct dso *p = qb_fg.interposers[k];
		for (size_t i = 1; i < p->nsyms; i++)
			if (exported(p, i)) {
				uint32_t h = fast_of(p)->pre_gnu ? fast_of(p)->pre_gnu[i] : qb_gnu_hash(p->strings + p->syms[i].st_name);
				bloom_add(h);
				if (ip_nhash < IP_HASHES)
					ip_hash[ip_nhash] = h;
				ip_nhash++;
			}
	}
}

/* The parent of a module (SYMINFO_BT_PARENT): the object of the global
 * scope whose identity linkopt recorded in needed[] under that index,
 * found once. Its symbol table is the one linkopt resolved against, so
 * its definition hints hold. */
static struct dso *parent_of(struct dso *p)
{
	if (fast_of(p)->parent_done)
		return fast_of(p)->parent;
	fast_of(p)->parent_done = 1;
	uint64_t want = 0;
	for (uint32_t k = 0; k < fast_of(p)->nneeded_ids; k++)
		if (fast_of(p)->needed_ids[k].dynidx == SYMINFO_BT_PARENT)
			want = (uint64_t)fast_of(p)->needed_ids[k].id[1] << 32 | fast_of(p)->needed_ids[k].id[0];
	for (struct dso *q = qb.head; want && q; q = q->gnext)
		if (q != p && q->global && fast_of(q)->self_id == want) {
			fast_of(p)->parent = q;
			break;
		}
	if (qb.debug & QB_DBG_DIRECT)
		qb_dbg("direct %s: parent %s", p->name, fast_of(p)->parent ? fast_of(p)->parent->name : "not loaded");
	return fast_of(p)->parent;
}

/* Direct binding of reference symi of p. Returns 1 with *out set when the
 * syminfo entry names a library and either an interposer or that library
 * defines the symbol; 0 when the standard lookup must decide. */
static int direct_lookup(struct dso *p, size_t symi, struct qb_symreq *r, struct symdef *out)
{
	const Syminfo *si = &fast_of(p)->syminfo[symi];
	if (!(si->si_flags & SYMINFO_FLG_DIRECT))
		return 0;
	int parent = si->si_boundto == SYMINFO_BT_PARENT;
	if (!parent && si->si_boundto >= fast_of(p)->nby_dynidx)
		return 0;
	struct dso *target = parent ? parent_of(p) : fast_of(p)->by_dynidx[si->si_boundto];
	if (!target)
		return 0;
	if (qb_fg.ninterposers && qb_ibloom_maybe(r->gnu_h)) {
		for (size_t k = 0; k < qb_fg.ninterposers; k++) {
			struct dso *ip = qb_fg.interposers[k];
			if (ip == p)
				continue;
			Sym *s = qb_lookup_in(ip, r);
			if (s) {
				out->sym = s;
				out->dso = ip;
				qb_fs.interposer_hits++;
				if (qb.debug & QB_DBG_DIRECT)
					qb_dbg("direct %s: %s: interposed by %s", p->name, r->name, ip->name);
				return 1;
			}
		}
	}
	Sym *s = (parent ? fast_of(p)->hints != 0 : fast_of(p)->hint_ok[si->si_boundto]) ? qb_hint_def(p, symi, target) : 0;
	if (s)
		qb_fs.hinted++;
	else
		s = qb_lookup_in(target, r);
	if (!s) {
		qb_fs.direct_misses++;
		if (qb.debug & QB_DBG_DIRECT)
			qb_dbg("direct %s: %s: not in %s, standard lookup", p->name, r->name, target->name);
		return 0;
	}
	/* The definition's own entry may forbid binding to it directly. */
	if (fast_of(target)->syminfo && (!fast_of(target)->noext_known || fast_of(target)->noext_any) &&
	    (fast_of(target)->syminfo[s - target->syms].si_flags & SYMINFO_FLG_NOEXTDIRECT)) {
		if (qb.debug & QB_DBG_DIRECT)
			qb_dbg("direct %s: %s: definition in %s is no-direct, standard lookup",
				p->name, r->name, target->name);
		return 0;
	}
	out->sym = s;
	out->dso = target;
	qb_fs.direct_hits++;
	if (qb.debug & QB_DBG_DIRECT)
		qb_dbg("direct %s: %s -> %s", p->name, r->name, target->name);
	return 1;
}

/* The definition the standard lookup finds for reference symi of p, by
 * the definer linkopt recorded (docs/FORMAT.md 2.4), without a name: the
 * first object of the global scope, in load order, that is the definer
 * (its identity, so the definition at the hint is the one linkopt saw)
 * is the answer when every object before it lacks the name, which its
 * bloom filter or its hash chain proves for the name's hash (an entry of
 * that hash, or an object without DT_GNU_HASH, leaves the question to
 * the standard lookup). The
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
	return want ? fast_of(x)->self_id == want : x == p;
}

/* Adds to out[*n] (at most max) the symbols of t whose name has GNU hash
 * h, by its bloom filter and the hash chain of h's bucket; returns 0 when
 * there are more than max. */
static int gnu_same_hash(const struct dso *t, uint32_t h, uint32_t *out, size_t *n, size_t max)
{
	if (!qb_gnu_bloom_maybe(t, h))
		return 1;
	for (uint32_t i = t->gh_buckets[h % t->gh_nbuckets]; i >= t->gh_symoffset && i && i < t->nsyms; i++) {
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

/* May x define a name of GNU hash h? Read as the lookup reads it: the
 * bloom filter, then the hash chain of h's bucket, where only an entry
 * of h's hash can be a definition of the name. With dozens of objects
 * before the definer, a filter's false "maybe" is met often; the chain
 * answers it without the name. */
static int may_define(const struct dso *x, uint32_t h)
{
	size_t n = 0;
	return !gnu_same_hash(x, h, 0, &n, 0);
}

static struct dso *walk_to_definer(struct dso *p, uint64_t want, uint32_t h)
{
	for (struct dso *x = qb.head; x; x = x->gnext) {
		if (!x->global)
			continue;
		if (is_definer(x, p, want))
			return x;
		qb.stats.probes++;
		if (!x->gh_bloom || may_define(x, h))
			return 0;
	}
	return 0;
}

/* The walks asked again: in a C++ program the same vague definition is
 * referenced from library after library, and every one of them walks the
 * same objects to the same definer. A walk's answer depends only on the
 * name's hash, the definer's identity and the objects before the definer
 * in the global scope, so it is kept, keyed by the first two, until the
 * scope changes (scope_changed empties it, as an unload may take the
 * definer away). A slot holds one answer; a clash replaces it. */
struct walk_memo {
	uint64_t want;
	uint32_t h, set;
	struct dso *x;              /* 0: an object before the definer may hold the name */
};
static struct walk_memo *walk_memo;
static size_t walk_memo_n;
static int walk_memo_off;

static void walk_memo_clear(void)
{
	if (walk_memo)
		memset(walk_memo, 0, walk_memo_n * sizeof *walk_memo);
}

static __attribute__((noinline)) struct dso *walk_remembered(struct dso *p, uint64_t want, uint32_t h)
{
	/* the object itself as definer: the answer is p's own */
	if (!want)
		return walk_to_definer(p, want, h);
	if (!walk_memo && !walk_memo_off && !(walk_memo = qb_calloc(walk_memo_n = qb_memo_slots(), sizeof *walk_memo)))
		walk_memo_off = 1;
	if (!walk_memo)
		return walk_to_definer(p, want, h);
	struct walk_memo *e = &walk_memo[(h ^ (uint32_t)want) & (walk_memo_n - 1)];
	if (e->set && e->h == h && e->want == want)
		return e->x;
	struct dso *x = walk_to_definer(p, want, h);
	*e = (struct walk_memo){ want, h, 1, x };
	return x;
}

/* The definer: one probe of the global table, or the walk. */
static __attribute__((noinline)) struct dso *scope_definer(struct dso *p, uint64_t want, uint32_t h,
	uint32_t hint)
{
	if (qb_gtab_on()) {
		uint32_t sym = hint;
		qb.stats.probes++;
		struct dso *x = qb_gtab_first(h, &sym);
		return x && sym == hint && is_definer(x, p, want) ? x : 0;
	}
	return walk_remembered(p, want, h);
}

hidden int qb_scope_def(struct dso *p, size_t symi, struct symdef *out)
{
	uint32_t k = fast_of(p)->definers[symi] - 1, hint = fast_of(p)->hints[symi];
	if (k >= fast_of(p)->nneeded_ids || fast_of(p)->needed_ids[k].dynidx != QB_NEEDED_SCOPE || !hint)
		return 0;
	const struct qb_needed_id *e = &fast_of(p)->needed_ids[k];
	uint64_t want = (uint64_t)e->id[1] << 32 | e->id[0];
	uint32_t h = fast_of(p)->pre_gnu[symi];
	struct dso *x = scope_definer(p, want, h, hint);
	return x && x->gh_bloom && qb_definer_def(x, hint, h, out);
}

/* Does t define a symbol that external references may not bind to
 * directly? Asked once per object; only definitions the GNU hash table
 * holds can be hinted. */
hidden int qb_noextdirect_any(struct dso *t)
{
	if (!fast_of(t)->noext_known) {
		uint64_t acc = 0, w;
		size_t i = t->gh_symoffset, n = t->nsyms;
		if (fast_of(t)->syminfo) {
			const unsigned char *e = (const unsigned char *)fast_of(t)->syminfo;
			for (; i + 2 <= n; i += 2) {
				memcpy(&w, e + i * sizeof(Syminfo), sizeof w);
				acc |= w;
			}
			if (i < n)
				acc |= (uint64_t)fast_of(t)->syminfo[i].si_flags << 16;
		}
		/* entries are (si_boundto, si_flags) pairs of 16-bit words */
		fast_of(t)->noext_any = !!(acc & ((uint64_t)SYMINFO_FLG_NOEXTDIRECT << 16 |
			(uint64_t)SYMINFO_FLG_NOEXTDIRECT << 48));
		fast_of(t)->noext_known = 1;
	}
	return fast_of(t)->noext_any;
}

/* The definitions of t an interposer may take (same GNU hash as one of
 * their names), when there are at most two: references hinted to them go
 * to the general path, all others need no interposer check. A program
 * exporting _init and _fini, which every library defines, is the usual
 * case. Returns 0 when every reference to t must ask the bloom filter. */
static int interposed_defs(struct dso *t, struct qb_hint_tgt *f)
{
	if (ip_nhash > IP_HASHES)
		return 0;
	if (fast_of(t)->ip_gen != ip_gen) {
		size_t n = 0;
		int ok = 1;
		fast_of(t)->ip_def[0] = fast_of(t)->ip_def[1] = 0;
		for (size_t k = 0; k < ip_nhash && ok; k++)
			ok = gnu_same_hash(t, ip_hash[k], fast_of(t)->ip_def, &n, 2);
		fast_of(t)->ip_many = !ok;
		fast_of(t)->ip_gen = ip_gen;
	}
	for (int k = 0; k < 2; k++)
		if (fast_of(t)->ip_def[k])
			f->ip_def[k] = fast_of(t)->ip_def[k] - f->lo;
	return !fast_of(t)->ip_many;
}

/* The mode of p's relocations, and what a hinted one reads: decided
 * once per object and per target (whether p's tables are in use, which
 * DT_NEEDED entries name a library that is still the one linkopt saw,
 * and for each such target that it has a GNU hash table, that none of its
 * definitions forbids direct binding and which of them an interposer may
 * take), so that per relocation only what the relocation itself may get
 * wrong is left to check (qb_hinted_value). */
extern const struct qb_ext qb_ext_fast hidden;

static int fast_prepare(struct dso *p, struct qb_prepared *s)
{
	if (fast_of(p)->tabseg)
		seal_table_segment(p, fast_of(p)->tabseg);
	/* what references to p will ask, while its pages are here (the
	 * page policy may give them back once it is relocated) */
	if (fast_of(p)->syminfo && !p->is_ldso)
		qb_noextdirect_any(p);
	/* its bind hook has something to do for p */
	s->binder = fast_of(p)->syminfo || fast_of(p)->definers ? &qb_ext_fast : 0;
	s->gnu = fast_of(p)->pre_gnu;
	s->sysv = fast_of(p)->pre_sysv;
	if (qb_launch_prepare(p, s))
		return QB_MODE_RECORD;
	if (!fast_of(p)->syminfo || !fast_of(p)->hints || !fast_of(p)->pre_gnu || !fast_of(p)->fast_tgt || p->is_ldso ||
	    p->nsyms > 0xffffffff || fast_of(p)->nby_dynidx > 0xffff)
		return QB_MODE_GENERAL;
	/* A reference takes a symbol index below nsyms, so entry 0 must not
	 * look like one (linkopt leaves it empty). */
	if (qb_syminfo_word(&fast_of(p)->syminfo[0]) - QB_DIRECT_WORD < fast_of(p)->nby_dynidx)
		return QB_MODE_GENERAL;
	s->si = fast_of(p)->syminfo;
	s->hints = fast_of(p)->hints;
	s->values = fast_of(p)->values;
	s->tgt = fast_of(p)->fast_tgt;
	s->ntgt = fast_of(p)->nby_dynidx;
	/* No reference bound directly (linkopt's count: every symbolic
	 * relocation is left to the loader): no target is asked anything,
	 * and the mode still applies the relative relocations. */
	if (fast_of(p)->std_known && qb_nonrelative_relocs(p) <= fast_of(p)->std_relocs) {
		memset(fast_of(p)->fast_tgt, 0, fast_of(p)->nby_dynidx * sizeof *fast_of(p)->fast_tgt);
		return QB_MODE_HINTED;
	}
	int any = 0, bloom = 0;
	for (size_t i = 0; i < fast_of(p)->nby_dynidx; i++) {
		struct dso *t = fast_of(p)->hint_ok[i] ? fast_of(p)->by_dynidx[i] : 0;
		struct qb_hint_tgt *f = &fast_of(p)->fast_tgt[i];
		/* most entries of .dynamic name no library: n == 0 says so */
		f->n = 0;
		if (!t || !t->gh_bloom || t->nsyms <= t->gh_symoffset || t->nsyms > 0xffffffff ||
		    qb_noextdirect_any(t))
			continue;
		/* no pin: a DT_NEEDED library is in p's own scope */
		*f = (struct qb_hint_tgt){ .lo = t->gh_symoffset, .n = (uint32_t)(t->nsyms - t->gh_symoffset),
			.chain = t->gh_chain + t->gh_symoffset, .syms = t->syms + t->gh_symoffset,
			.base = (size_t)t->base, .ip_def = { UINT32_MAX, UINT32_MAX } };
		if (qb_fg.ninterposers && !interposed_defs(t, f))
			bloom = 1;
		any = 1;
	}
	if (!any)
		return QB_MODE_GENERAL;
	if (bloom) {
		s->ibloom = qb_fg.ibloom;
		s->ibloom_mask = qb_fg.ibloom_mask;
		return QB_MODE_CAREFUL;
	}
	return fast_of(p)->values ? QB_MODE_VALUED : QB_MODE_HINTED;
}

/* Standard and direct answers differ: report; the direct one stands. */
static void verify_direct(struct dso *p, struct qb_symreq *r, const struct symdef *direct)
{
	struct symdef std = qb_lookup(r, 0, p->reloc_root);
	if (std.sym == direct->sym)
		return;
	qb.verify_diffs++;
	qb_dbg("verify: %s: %s: direct binding gives %s, standard lookup gives %s",
		p->name, r->name, direct->dso->name, std.sym ? std.dso->name : "<undefined>");
}

/* Reference symi of p: before its name is read (r == 0), a definition
 * hint or the scope definer linkopt recorded; with the name, direct
 * binding. LD_DIRECT_VERIFY compares either with the standard lookup,
 * whose answer is kept. */
/* The bind hook is asked about every reference a hinted mode leaves to
 * the general path, most of them C++'s vague ones: it only dispatches,
 * so that a reference without a hint pays no more than the tests that
 * send it on (the hinted and the named bindings are functions of their
 * own; the scope definer's step, a call already, stays inline). */
static __attribute__((noinline)) int bind_hint(struct dso *p, size_t symi, struct symdef *out)
{
	return qb_bind_hinted(p, symi, out);
}

static int bind_scoped(struct dso *p, size_t symi, struct symdef *out)
{
	if (!qb_scope_def(p, symi, out))
		return 0;
	qb_fs.scoped++;
	return 1;
}

static __attribute__((noinline)) int bind_named(struct dso *p, size_t symi, struct qb_symreq *r,
	struct symdef *out)
{
	if (fast_of(p)->syminfo && direct_lookup(p, symi, r, out)) {
		qb.stats.lookups++;
		if (qb.env.verify)
			verify_direct(p, r, out);
		return 1;
	}
	return 0;
}

/* A binding made before the name was read, watched as it stands. */
static int watched(struct dso *p, size_t symi, const struct symdef *d, int by)
{
	if (qb_bindings_watched())
		qb_watch(p, symi, d->sym ? (size_t)d->dso->base + d->sym->st_value : 0, by);
	return 1;
}

static int fast_bind(struct dso *p, size_t symi, struct qb_symreq *r, struct symdef *out)
{
	if (r)
		return bind_named(p, symi, r, out);
	/* before the name is read: a definition hint for a reference bound
	 * directly, else the answer in the scope */
	if (fast_of(p)->syminfo && (fast_of(p)->syminfo[symi].si_flags & SYMINFO_FLG_DIRECT))
		return bind_hint(p, symi, out) && watched(p, symi, out, QB_BY_DIRECT);
	return fast_of(p)->definers && bind_scoped(p, symi, out) && watched(p, symi, out, QB_BY_SCOPE);
}

static void fast_scope_changed(void)
{
	interposers_sync();
	walk_memo_clear();
	qb_launch_changed();
}

/* p leaves: a module whose parent it was looks for it again. */
static void fast_released(struct dso *p)
{
	for (struct dso *q = qb.head; q; q = q->next)
		if (fast_of(q)->parent == p) {
			fast_of(q)->parent = 0;
			fast_of(q)->parent_done = 0;
		}
	qb_free(fast_of(p)->by_dynidx);
	fast_of(p)->by_dynidx = 0;
}

static void fast_stats(struct qb_stats *s, const char *when, int fold)
{
	struct qb_fast_stats *f = &qb_fs;
	if (fold) {
		/* what the core counted for this extension */
		f->prehashed += s->prehashed;
		f->hinted_fast += s->hinted;
		f->scoped += s->scoped;
		f->recorded += s->recorded;
		s->prehashed = s->hinted = s->scoped = s->recorded = 0;
		f->direct_hits += f->hinted_fast;
		f->hinted += f->hinted_fast;
		f->prehashed += f->hinted_fast;
		s->lookups += f->hinted_fast;
		f->hinted_fast = 0;
		s->lookups += f->scoped;
		f->prehashed += f->scoped;
		return;
	}
	static int told;
	if (!told++)
		qb_dbg("statistics: direct_hits/direct_misses: references bound in (or missing from) the library "
			"linkopt recorded; interposer_hits: references an interposer took; precomputed_hashes / "
			"names_hashed: names whose hash the file carried / the loader computed; definition_hints, "
			"scope_definers: references bound at their recorded definition / through their recorded definer; "
			"launch_record: references bound from the program's launch record");
	qb_dbg("statistics (%s): direct_hits=%zu direct_misses=%zu interposer_hits=%zu precomputed_hashes=%zu names_hashed=%zu definition_hints=%zu scope_definers=%zu launch_record=%zu",
		when, f->direct_hits, f->direct_misses, f->interposer_hits, f->prehashed, s->hashed, f->hinted,
		f->scoped, f->recorded);
}

hidden const struct qb_ext qb_ext_fast = {
	.name = "fast",
	.decoded = fast_decoded,
	.needed = fast_needed,
	.scope_changed = fast_scope_changed,
	.prepare = fast_prepare,
	.bind = fast_bind,
	.released = fast_released,
	.stats = fast_stats,
};
