/* The start-up scope linkopt checked (docs/FORMAT.md 2.5).
 *
 * A program's table may list its start-up load, library by library in
 * load order: the identity of each one's symbol table and, when linkopt
 * found every definer that library's table records to be the standard
 * lookup's answer in that very load, the identity of its table. When the
 * global scope start-up built holds those libraries, with those
 * identities, in that order, linkopt has already shown, on these very
 * symbol tables, that no library of the list before such a library's
 * definers defines the names: a reference through one of them needs
 * neither a walk of the scope nor the global table. The objects of the
 * scope that the list does not hold (the C library, which is the loader
 * and not the file linkopt read; a preloaded library) rule the name out
 * themselves, each by its hash table, where they come before the
 * definer, as a walk would ask them. Decided once, when start-up has
 * built the scope; the first change of the scope after it (a dlopen, an
 * unload) ends it. */
#include "fast.h"

hidden struct qb_cscope qb_cs;
static int on;
static struct qb_vouched_def *block;  /* the definer_obj arrays */
static struct dso **listed;     /* the list's libraries, in its order */
static uint32_t nlisted;

static void say(const char *what, size_t n, size_t vouched, size_t rest)
{
	if (qb.debug & (QB_DBG_STATS | QB_DBG_DIRECT))
		qb_dbg("checked scope: %s (%zu libraries listed, %zu with their definers checked, "
			"%zu other answers)", what, n, vouched, rest);
}

static void end(void)
{
	if (!on)
		return;
	for (struct dso *x = qb.head; x; x = x->next) {
		FX(x)->vouched = 0;
		FX(x)->definer_obj = 0;
		FX(x)->rest = 0;
		FX(x)->nrest = 0;
	}
	qb_free(block);
	qb_free(listed);
	block = 0;
	listed = 0;
	nlisted = 0;
	on = 0;
}

/* The scope from the program on against the list: the libraries it
 * holds in its order, the other objects noted (at most a few: the C
 * library, a preload or two, each asked by every reference whose definer
 * comes after it); 1 when they agree. */
static int agrees(const struct qb_scope_ent *s, uint32_t n, struct dso **list)
{
	uint32_t i = 0;
	qb_cs.nextra = 0;
	for (struct dso *x = qb.main->gnext; x; x = x->gnext) {
		FX(x)->extra_before = qb_cs.nextra;
		if (i < n && FX(x)->self_id == ((uint64_t)s[i].self_id[1] << 32 | s[i].self_id[0])) {
			list[i++] = x;
			continue;
		}
		if (qb_cs.nextra == QB_CS_EXTRA_MAX)
			return 0;
		qb_cs.extra[qb_cs.nextra++] = x;
	}
	return i == n;
}

/* The listed libraries by identity, while the definers are found. */
struct ids {
	uint32_t mask;
	struct slot {
		uint64_t id;
		struct dso *x;
	} *slot;
};

static void put(struct ids *m, struct dso *x)
{
	uint64_t id = FX(x)->self_id;
	size_t i = (size_t)(id ^ id >> 32) & m->mask;
	while (m->slot[i].id && m->slot[i].id != id)
		i = (i + 1) & m->mask;
	/* two libraries with one identity: the first, as a walk finds it */
	if (!m->slot[i].id)
		m->slot[i] = (struct slot){ id, x };
}

static struct dso *get(const struct ids *m, uint64_t id)
{
	size_t i = (size_t)(id ^ id >> 32) & m->mask;
	while (m->slot[i].id && m->slot[i].id != id)
		i = (i + 1) & m->mask;
	return m->slot[i].x;
}

/* The definer of each of p's needed_ids entries for the scope (p itself
 * for identity 0; 0 for other entries, a definer not listed or without
 * a GNU hash table, which the guard of a hint reads), into *at. */
static void find_definers(struct dso *p, const struct ids *m, struct qb_vouched_def **at)
{
	const struct qb_needed_id *e = FX(p)->needed_ids;
	FX(p)->definer_obj = *at;
	for (uint32_t k = 0; k < FX(p)->nneeded_ids; k++) {
		uint64_t id = (uint64_t)e[k].id[1] << 32 | e[k].id[0];
		struct dso *x = e[k].dynidx != QB_NEEDED_SCOPE ? 0 : id ? get(m, id) : p;
		if (x && x->gh_bloom)
			(*at)[k] = (struct qb_vouched_def){ x, FX(x)->extra_before };
	}
	*at += FX(p)->nneeded_ids;
}

/* Is x, met in scope order, the next of the objects the list does not
 * hold (*e counts those met)? */
static int is_extra(const struct dso *x, uint32_t *e)
{
	if (*e < qb_cs.nextra && qb_cs.extra[*e] == x) {
		++*e;
		return 1;
	}
	return 0;
}

/* Each listed library's part of the program's rest of the answers, in
 * its order (list index, then symbol index): none at all when it is not
 * in that order, as a search of a part must be able to trust it. */
static uint32_t share_rest(struct dso *prog)
{
	const struct qb_rest_ent *r = FX(prog)->rest_list;
	uint32_t n = FX(prog)->nrest_list, i = 0;
	for (uint32_t k = 1; k < n; k++)
		if (r[k].lib < r[k - 1].lib || (r[k].lib == r[k - 1].lib && r[k].sym <= r[k - 1].sym))
			return 0;
	while (i < n && r[i].lib < nlisted) {
		uint32_t j = i;
		while (j < n && r[j].lib == r[i].lib)
			j++;
		FX(listed[r[i].lib])->rest = r + i;
		FX(listed[r[i].lib])->nrest = j - i;
		i = j;
	}
	return i;
}

hidden void qb_cscope_changed(void)
{
	static int decided;
	if (decided++) {
		end();
		return;
	}
	struct dso *prog = qb.main;
	const struct qb_scope_ent *s = FX(prog)->scope;
	uint32_t n = FX(prog)->nscope, e = 0;
	if (!s || qb.head != prog || !(listed = qb_calloc(n + 1, sizeof *listed)))
		return;
	nlisted = n;
	if (!agrees(s, n, listed)) {
		say("the start-up scope is not the one linkopt checked", n, 0, 0);
		qb_free(listed);
		listed = 0;
		nlisted = 0;
		return;
	}
	struct ids ids = { 0, 0 };
	size_t slots = 16, nk = FX(prog)->nneeded_ids, vouched = 0, i = 0;
	while (slots < 2 * (size_t)n)
		slots <<= 1;
	for (struct dso *x = prog->gnext; x; x = x->gnext)
		nk += FX(x)->nneeded_ids;
	struct qb_vouched_def *at = block = qb_calloc(nk + 1, sizeof *at);
	if (!at || !(ids.slot = qb_calloc(slots, sizeof *ids.slot))) {
		qb_free(block);
		qb_free(listed);
		block = 0;
		listed = 0;
		nlisted = 0;
		return;
	}
	ids.mask = (uint32_t)slots - 1;
	for (struct dso *x = prog->gnext; x; x = x->gnext)
		if (!is_extra(x, &e))
			put(&ids, x);
	e = 0;
	for (struct dso *x = prog->gnext; x; x = x->gnext) {
		if (is_extra(x, &e))
			continue;
		uint64_t tid = (uint64_t)s[i].table_id[1] << 32 | s[i].table_id[0];
		FX(x)->vouched = tid && tid == FX(x)->table_id && FX(x)->definers;
		if (FX(x)->vouched)
			find_definers(x, &ids, &at);
		vouched += FX(x)->vouched;
		i++;
	}
	/* the program when linkopt checked its own definers too */
	FX(prog)->vouched = FX(prog)->scope_self && FX(prog)->definers;
	FX(prog)->extra_before = 0;
	if (FX(prog)->vouched)
		find_definers(prog, &ids, &at);
	qb_free(ids.slot);
	on = 1;
	say("the start-up scope is the one linkopt checked", n, vouched, share_rest(prog));
}

/* Reference symi of p, one its own table leaves to the standard lookup:
 * the answer linkopt recorded for this scope (docs/FORMAT.md 2.6), once
 * the objects the list does not hold that come before the definer (every
 * one of them, for a name no object defines) rule the name out by their
 * bloom filters and hash chains; the guard of a hint as ever. 0: the
 * standard lookup decides. */
hidden int qb_cscope_rest(struct dso *p, size_t symi, struct symdef *out)
{
	const struct qb_rest_ent *e = FX(p)->rest;
	size_t lo = 0, hi = FX(p)->nrest;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (e[mid].sym < symi)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == FX(p)->nrest || e[lo].sym != symi || !FX(p)->pre_gnu)
		return 0;
	e += lo;
	uint32_t h = FX(p)->pre_gnu[symi];
	struct dso *x = e->definer == QB_REST_PROGRAM ? qb.main : e->definer == QB_REST_NONE ? 0 :
			e->definer < nlisted ? listed[e->definer] : 0;
	if (!x && e->definer != QB_REST_NONE)
		return 0;
	if (!qb_cs_ruled_out(x ? FX(x)->extra_before : qb_cs.nextra, h))
		return 0;
	if (x)
		return x->gh_bloom && qb_definer_def(x, e->hint, h, out);
	/* no object defines the name: a weak reference binds to 0 */
	const Sym *ref = p->syms + symi;
	if (ref->st_shndx || ST_BIND(ref->st_info) != STB_WEAK)
		return 0;
	*out = (struct symdef){ 0, p };
	return 1;
}
