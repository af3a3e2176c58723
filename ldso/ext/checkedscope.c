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

static void say(const char *what, size_t n, size_t vouched)
{
	if (qb.debug & (QB_DBG_STATS | QB_DBG_DIRECT))
		qb_dbg("checked scope: %s (%zu libraries listed, %zu with their definers checked)",
			what, n, vouched);
}

static void end(void)
{
	if (!on)
		return;
	for (struct dso *x = qb.head; x; x = x->next) {
		FX(x)->vouched = 0;
		FX(x)->definer_obj = 0;
	}
	qb_free(block);
	block = 0;
	on = 0;
}

/* The scope from the program on against the list: the libraries it
 * holds in its order, the other objects noted (at most a few: the C
 * library, a preload or two, each asked by every reference whose definer
 * comes after it); 1 when they agree. */
static int agrees(const struct qb_scope_ent *s, uint32_t n)
{
	uint32_t i = 0;
	qb_cs.nextra = 0;
	for (struct dso *x = qb.main->gnext; x; x = x->gnext) {
		FX(x)->extra_before = qb_cs.nextra;
		if (i < n && FX(x)->self_id == ((uint64_t)s[i].self_id[1] << 32 | s[i].self_id[0])) {
			i++;
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
	if (!s || qb.head != prog)
		return;
	if (!agrees(s, n)) {
		say("the start-up scope is not the one linkopt checked", n, 0);
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
		block = 0;
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
	say("the start-up scope is the one linkopt checked", n, vouched);
}
