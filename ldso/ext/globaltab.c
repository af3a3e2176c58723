/* One table of the start-up global scope's definitions, keyed by GNU hash.
 *
 * The standard lookup asks object after object of the global scope; with
 * a hundred libraries that is a couple of dozen bloom and bucket probes a
 * lookup. This table answers the same question in one probe: every symbol
 * reachable through an object's DT_GNU_HASH, keyed by the hash value its
 * chain already stores (no name is hashed to build it), in global-scope
 * order. A lookup takes the entries of its hash in that order and applies
 * to each the very test the object walk applies (lookup.c's candidate:
 * binding, type, definedness, name, version), so the first that passes is
 * the definition the walk would find.
 *
 * Why it stays exact:
 *  - it covers only the objects loaded at start-up, which never leave and
 *    never leave the global scope; objects that dlopen brings in (GLOBAL or
 *    not) come after all of them in load order and are walked after the
 *    table, as before, so dlopen, its undo and dlclose change nothing here;
 *  - an entry exists exactly when the object's own GNU hash lookup would
 *    reach the symbol for that hash: the chain value loses the hash's low
 *    bit, which the bucket gives back (hash mod nbuckets must name the
 *    bucket whose chain holds the symbol; with one bucket both values
 *    are entered), and the bloom filter must pass, as in the walk;
 *  - an object whose hash table is not the plain sorted layout linkers
 *    write (chains that overlap or start below symoffset), that has no
 *    DT_GNU_HASH, or that does not fit the entry format, is not entered:
 *    it is probed the standard way at its place in the order.
 *
 * It is built only when it pays (see worth_it): start-up cost against the
 * probes it saves. LD_GLOBALTAB=0 never builds it, =1 always does. It
 * also answers, without a name, whether a scope definer (fastpath.c) is
 * the first object with the reference's hash (qb_gtab_first). */
#include <string.h>
#include "globaltab.h"
#include "fast.h"
#include "symtest.h"

hidden struct qb_gtab qb_gtab;

/* Can p's symbols be entered? Symbol indices must fit an entry. */
static int enterable(const struct dso *p, uint32_t order)
{
	return p->gh_bloom && order < QB_GT_MAXORDER && p->nsyms <= ((size_t)1 << QB_GT_SYMBITS);
}

/* Room an object may take: one entry per symbol of its chains, two with
 * a single bucket (both low bits possible). */
static size_t bound_of(const struct dso *p)
{
	size_t n = p->nsyms > p->gh_symoffset ? p->nsyms - p->gh_symoffset : 0;
	return p->gh_nbuckets == 1 ? 2 * n : n;
}

/* Enter p's symbols at tmp[*n...], counting them per slot in cnt[slot+1].
 * Returns 0, with nothing entered, when the hash table is not the
 * layout the table relies on: non-empty buckets start in increasing order
 * at or above symoffset and each chain ends before the next begins, so a
 * symbol is reached from one bucket only. */
static int enter(const struct dso *p, uint32_t order, struct qb_gt_ent *tmp, size_t *n,
	uint32_t *cnt, uint32_t mask)
{
	size_t k = *n, next_free = p->gh_symoffset;
	uint32_t nb = p->gh_nbuckets;
	const uint32_t *chain = p->gh_chain;
	for (uint32_t b = 0; b < nb; b++) {
		size_t i = p->gh_buckets[b];
		if (!i)
			continue;
		if (i < next_free)
			goto refuse;
		for (; i < p->nsyms; i++) {
			uint32_t c = chain[i], h0 = c & ~1u, r0 = h0 % nb;
			uint32_t r1 = r0 + 1 == nb ? 0 : r0 + 1;
			uint32_t ref = order << QB_GT_SYMBITS | (uint32_t)i;
			if (r0 == b && qb_gnu_bloom_maybe(p, h0)) {
				tmp[k++] = (struct qb_gt_ent){ h0, ref };
				cnt[(h0 & mask) + 1]++;
			}
			if (r1 == b && qb_gnu_bloom_maybe(p, h0 | 1)) {
				tmp[k++] = (struct qb_gt_ent){ h0 | 1, ref };
				cnt[((h0 | 1) & mask) + 1]++;
			}
			if (c & 1)
				break;
		}
		next_free = i + 1;
	}
	*n = k;
	return 1;
refuse:
	while (k > *n) {
		k--;
		cnt[(tmp[k].h & mask) + 1]--;
	}
	return 0;
}

/* Does the table pay? It is built when the walks it would spare cost
 * more than building it; both are estimated before any relocation, from
 * what the objects say of themselves.
 *
 * Building costs about BUILD_COST instructions per symbol entered.
 *
 * A lookup the table answers saves about PROBE_COST instructions per
 * object the walk would have probed, about half the scope (fewer for
 * large programs, where the answer is yes anyway), plus LOOKUP_SAVING of
 * the walk's own overhead. The lookups: the relocation entries of the
 * objects without direct-binding tables, less the relative ones the
 * linker counted (DT_RELACOUNT), and in the others those linkopt did not
 * bind directly (its count, std_relocs). A program whose libraries mostly
 * reach their own code looks up little, and there the table costs more
 * than it saves.
 *
 * Of the latter, a reference with a scope definer walks the scope only up
 * to its definer, each object before it ruling the name out by its bloom
 * filter (about BLOOM_COST instructions), or takes one probe of the
 * table: what the table spares it is that short walk, not a lookup.
 * linkopt counts them (scoped_relocs); how far they walk, a sample of the
 * definers' places says, read only when the first estimate says the
 * table may pay. The constants and the
 * choices they give are measured in docs/BENCHMARKS.md. */
#define PROBE_COST 33
#define LOOKUP_SAVING 40
#define BUILD_COST 70
#define BLOOM_COST 12

/* The start-up objects' places in the scope, by the identity of their
 * symbol tables (the definers linkopt recorded are named by it). */
struct places {
	uint64_t *id;
	uint32_t *order, mask;
};

static int places_init(struct places *m, size_t nobj)
{
	size_t n = 16;
	while (n < 2 * nobj)
		n <<= 1;
	m->id = qb_calloc(n, sizeof *m->id + sizeof *m->order);
	if (!m->id)
		return 0;
	m->order = (uint32_t *)(m->id + n);
	m->mask = (uint32_t)n - 1;
	uint32_t o = 0;
	for (struct dso *p = qb.head; p && !p->runtime; p = p->next, o++) {
		uint64_t id = fast_of(p)->self_id;
		if (!id)
			continue;
		size_t i = (size_t)(id ^ id >> 32) & m->mask;
		while (m->id[i] && m->id[i] != id)
			i = (i + 1) & m->mask;
		if (!m->id[i]) {
			m->id[i] = id;
			m->order[i] = o;
		}
	}
	return 1;
}

static uint32_t place_of(const struct places *m, uint64_t id, uint32_t none)
{
	for (size_t i = (size_t)(id ^ id >> 32) & m->mask; m->id[i]; i = (i + 1) & m->mask)
		if (m->id[i] == id)
			return m->order[i];
	return none;
}

/* p's references with a scope definer (*n) and the objects their walks
 * would ask (*steps): the definer's place in the scope; the object itself
 * when linkopt named no other; the whole scope for a definer not in it. */
static void definer_walks(struct dso *p, uint32_t self, uint32_t nobj, const struct places *m,
	size_t *n, double *steps)
{
	const struct qb_fast *f = fast_of(p);
	uint32_t place[64];
	uint32_t nk = f->nneeded_ids < 64 ? f->nneeded_ids : 64;
	for (uint32_t k = 0; k < nk; k++) {
		const struct qb_needed_id *e = &f->needed_ids[k];
		uint64_t want = (uint64_t)e->id[1] << 32 | e->id[0];
		place[k] = e->dynidx != QB_NEEDED_SCOPE ? nobj : want ? place_of(m, want, nobj) : self;
	}
	const uint32_t *d = f->definers;
	for (size_t i = 1; i < p->nsyms; i++)
		if (d[i]) {
			(*n)++;
			*steps += d[i] - 1 < nk ? place[d[i] - 1] : nobj;
		}
}

static int decide(double walks, double build)
{
	if (qb.debug & QB_DBG_STATS)
		qb_dbg("global table: estimated instructions: lookups without it=%.0f, building it=%.0f: %s",
			walks, build, walks > build ? "built" : "not built");
	return walks > build;
}

/* The walks of p's references with a scope definer: as many as linkopt
 * counted (scoped_relocs), each as long as the places of a sample of p's
 * definers say (a few hundred entries of its definer array, not all of
 * it; half the scope when the sample finds none); without linkopt's
 * count, from the whole array. */
#define SAMPLE 256

static double scoped_walks(struct dso *p, uint32_t self, uint32_t nobj, const struct places *m,
	size_t *n)
{
	double steps = 0;
	if (!fast_of(p)->scoped_known) {
		definer_walks(p, self, nobj, m, n, &steps);
		return steps;
	}
	*n = fast_of(p)->scoped_relocs;
	if (!*n)
		return 0;
	const struct qb_fast *f = fast_of(p);
	size_t stride = p->nsyms / SAMPLE ? p->nsyms / SAMPLE : 1, seen = 0;
	double sum = 0;
	for (size_t i = 1; i < p->nsyms; i += stride) {
		uint32_t k = f->definers[i];
		if (!k)
			continue;
		const struct qb_needed_id *e = k - 1 < f->nneeded_ids ? &f->needed_ids[k - 1] : 0;
		uint64_t want = e ? (uint64_t)e->id[1] << 32 | e->id[0] : 0;
		sum += !e || e->dynidx != QB_NEEDED_SCOPE ? nobj : want ? place_of(m, want, nobj) : self;
		seen++;
	}
	return *n * (seen ? sum / seen : (double)nobj / 2);
}

static int worth_it(size_t nobj, size_t nsyms)
{
	const double full = PROBE_COST * (double)nobj / 2 + LOOKUP_SAVING;
	const double build = (double)BUILD_COST * nsyms;
	double walks = 0;
	int scan = 0, scoped = 0;
	for (struct dso *p = qb.head; p && !p->runtime; p = p->next) {
		if (fast_of(p)->syminfo) {
			/* linkopt counted those it did not bind directly */
			walks += fast_of(p)->std_known ? fast_of(p)->std_relocs * full : 0;
			scan |= fast_of(p)->definers && !fast_of(p)->scoped_known;
			scoped |= fast_of(p)->definers && fast_of(p)->scoped_relocs;
		} else {
			walks += qb_nonrelative_relocs(p) * full;
		}
	}
	struct places m = { 0, 0, 0 };
	if (walks > build && (scan || scoped) && !places_init(&m, nobj))
		return 1;
	walks = 0;
	uint32_t o = 0;
	for (struct dso *p = qb.head; p && !p->runtime; p = p->next, o++) {
		if (!fast_of(p)->syminfo) {
			walks += qb_nonrelative_relocs(p) * full;
			continue;
		}
		if (!fast_of(p)->std_known)
			continue;
		/* the launch record answers its references (launch.c) */
		if (fast_of(p)->acount)
			continue;
		size_t n = 0;
		double steps = fast_of(p)->definers && m.id ?
			scoped_walks(p, o, (uint32_t)nobj, &m, &n) : 0;
		walks += (fast_of(p)->std_relocs > n ? fast_of(p)->std_relocs - n : 0) * full + steps * BLOOM_COST;
	}
	qb_free(m.id);
	return decide(walks, build);
}

static int build(void)
{
	struct qb_gtab *t = &qb_gtab;
	const char *env = qb.env.globaltab;
	if (env && *env == '0')
		return 0;
	size_t nobj = 0, bound = 0;
	for (struct dso *p = qb.head; p && !p->runtime; p = p->next) {
		if (enterable(p, (uint32_t)nobj))
			bound += bound_of(p);
		nobj++;
	}
	if (!nobj || bound > ((size_t)1 << 31) || (!(env && *env == '1') && !worth_it(nobj, bound)))
		return 0;
	uint32_t slots = 16;
	while (slots < bound / 2)
		slots <<= 1;
	t->obj = qb_malloc(nobj * sizeof *t->obj);
	t->walk = qb_malloc(nobj * sizeof *t->walk);
	t->walk_order = qb_malloc(nobj * sizeof *t->walk_order);
	t->start = qb_calloc((size_t)slots + 1, sizeof *t->start);
	struct qb_gt_ent *tmp = qb_malloc((bound ? bound : 1) * sizeof *tmp);
	if (!t->obj || !t->walk || !t->walk_order || !t->start || !tmp)
		goto fail;
	t->mask = slots - 1;
	size_t n = 0;
	uint32_t order = 0;
	for (struct dso *p = qb.head; p && !p->runtime; p = p->next, order++) {
		t->obj[order] = p;
		t->last = p;
		if (!enterable(p, order) || !enter(p, order, tmp, &n, t->start, t->mask)) {
			t->walk[t->nwalk] = p;
			t->walk_order[t->nwalk++] = order;
		}
	}
	t->nobj = order;
	t->nent = (uint32_t)n;
	t->ent = qb_malloc((n ? n : 1) * sizeof *t->ent);
	if (!t->ent)
		goto fail;
	/* Counting sort by slot, stable: each slot keeps the scope order. */
	uint32_t *c = t->start;
	for (uint32_t s = 1; s <= slots; s++)
		c[s] += c[s - 1];
	for (size_t k = 0; k < n; k++)
		t->ent[c[tmp[k].h & t->mask]++] = tmp[k];
	memmove(c + 1, c, (size_t)slots * sizeof *c);
	c[0] = 0;
	qb_free(tmp);
	t->bytes = n * sizeof *t->ent + ((size_t)slots + 1) * sizeof *t->start +
		3 * nobj * sizeof(void *);
	if (qb.debug & QB_DBG_STATS)
		qb_dbg("global table: objects=%u entered=%u entries=%u slots=%u bytes=%zu "
			"(objects of the scope, those whose symbols it holds, symbols, hash slots, memory)",
			t->nobj, t->nobj - t->nwalk, t->nent, slots, t->bytes);
	return 1;
fail:
	qb_free(tmp);
	qb_free(t->obj);
	qb_free(t->walk);
	qb_free(t->walk_order);
	qb_free(t->start);
	memset(t, 0, sizeof *t);
	return 0;
}

hidden struct dso *qb_gtab_first(uint32_t h, uint32_t *sym)
{
	const struct qb_gtab *t = &qb_gtab;
	const uint32_t *slot = t->start + (h & t->mask);
	const struct qb_gt_ent *e = t->ent + slot[0], *end = t->ent + slot[1];
	while (e < end && e->h != h)
		e++;
	if (e == end)
		return 0;
	uint32_t o = e->ref >> QB_GT_SYMBITS;
	for (uint32_t w = 0; w < t->nwalk && t->walk_order[w] < o; w++) {
		const struct dso *x = t->walk[w];
		if (!x->gh_bloom || qb_gnu_bloom_maybe(x, h))
			return 0;
	}
	*sym = e->ref & (((uint32_t)1 << QB_GT_SYMBITS) - 1);
	return t->obj[o];
}

hidden int qb_gtab_build(void)
{
	qb_gtab.state = build() ? 1 : -1;
	return qb_gtab.state > 0;
}

/* The start-up objects from position `from` on, through the table: the
 * entries of r's hash in scope order, each put to the test the walk puts
 * it to; the objects the table could not take are probed at their place
 * in the order. */
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
		if (o >= from && p != skip && qb_candidate(p, i, r)) {
			def->sym = p->syms + i;
			def->dso = p;
			found = o;
			break;
		}
	}
	if (__builtin_expect(t->nwalk != 0, 0))
		for (uint32_t w = 0; w < t->nwalk && t->walk_order[w] < found; w++) {
			struct dso *x = t->walk[w];
			Sym *s;
			if (t->walk_order[w] >= from && x != skip && (s = qb_lookup_in(x, r))) {
				def->sym = s;
				def->dso = x;
				return 1;
			}
		}
	return found < t->nobj;
}

static uint32_t order_of(const struct dso *p)
{
	uint32_t o = 0;
	while (o < qb_gtab.nobj && qb_gtab.obj[o] != p)
		o++;
	return o;
}

/* LD_DIRECT_VERIFY: a table's answer that the walk does not give is
 * reported; the table's stands. Out of line: the hot path stays small. */
static __attribute__((noinline)) struct symdef verified(struct dso *from, struct qb_symreq *r,
	struct dso *skip, struct symdef def)
{
	struct symdef std = qb_walk_global(from, r, skip);
	if (std.sym != def.sym) {
		qb.verify_diffs++;
		qb_dbg("verify: %s: global table gives %s, standard lookup gives %s", r->name,
			def.sym ? def.dso->name : "<undefined>", std.sym ? std.dso->name : "<undefined>");
	}
	return def;
}

/* Without the table, the answers of the global scope to names asked
 * again: a start-up object's reference (no local scope, nothing skipped,
 * no version) gets the first definition of its name in the global scope,
 * whichever object asks, so the same name asked by the next library (a
 * weak reference every library's start files make, a C++ inline
 * function, a libc function) has the answer of the first, found without a
 * walk of every object. The answer holds until the global scope changes:
 * every change empties the memo (scope_changed). */
struct memo_ent {
	uint32_t h;
	const char *name;           /* 0: empty */
	struct symdef def;
};
static struct memo_ent *memo;
static size_t memo_n;
static int memo_off;

static void memo_clear(void)
{
	if (memo)
		memset(memo, 0, memo_n * sizeof *memo);
}

static struct symdef memo_lookup(struct qb_symreq *r)
{
	if (!memo && !memo_off && !(memo = qb_calloc(memo_n = qb_memo_slots(), sizeof *memo)))
		memo_off = 1;
	if (!memo)
		return qb_walk_global(qb.head, r, 0);
	struct memo_ent *e = &memo[r->gnu_h & (memo_n - 1)];
	if (e->name && e->h == r->gnu_h && qb_names_equal(e->name, r->name))
		return e->def;
	struct symdef def = qb_walk_global(qb.head, r, 0);
	*e = (struct memo_ent){ r->gnu_h, r->name, def };
	return def;
}

/* The lookup hook: the global scope from a start-up object on, through
 * the table; without it, the memo for a start-up object's questions. */
static struct symdef gtab_lookup(struct dso *from, struct qb_symreq *r, struct dso *skip,
	struct dso *root)
{
	if (!qb_gtab_on())
		return from != qb.head || skip || root || r->ver ? qb_lookup_std(from, r, skip, root) :
		       qb.env.verify ? verified(from, r, skip, memo_lookup(r)) : memo_lookup(r);
	if (from->runtime)
		return qb_lookup_std(from, r, skip, root);
	struct symdef def = { 0, 0 };
	if (!table_global(from == qb.head ? 0 : order_of(from), r, skip, &def))
		def = qb_walk_global(qb_gtab.last->gnext, r, skip);
	if (qb.env.verify)
		def = verified(from, r, skip, def);
	return def.sym ? def : qb_lookup_local(root, r, skip);
}

hidden const struct qb_ext qb_ext_gtab = {
	.name = "globaltab",
	.lookup = gtab_lookup,
	.scope_changed = memo_clear,
};
