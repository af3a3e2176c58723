/* The launch record (docs/FORMAT.md 2.6).
 *
 * A program linkopt optimized may hold its whole start-up load: the
 * identity of every object in global-scope order, the C library the
 * loader stands for included (the loader's build), and for each object
 * the standard lookup's answer to every symbol its relocations name.
 * Once start-up has built the global scope it is checked all or
 * nothing: the same objects, by identity, in the same order, and none
 * besides but preloads that define none of its names (a library
 * LD_LIBRARY_PATH found, a rebuilt one, a preload that may define a name
 * it answers: any of them declines the whole record). Then no answer can
 * differ from the lookup's, because every symbol table it read is byte
 * for byte the one linkopt resolved against, in the same scope; the
 * relocation engine binds from it (QB_MODE_RECORD, ext.h). The first
 * change of the scope after start-up ends it: what dlopen loads later
 * is looked up. */
#include "fast.h"
#include "elfhash.h"

static size_t *bases;    /* by the record's object index: the object's base */
static uint32_t nbases;
static const uint32_t *names;  /* the filter of the names it answers */
static uint32_t nnames;

static void say(const char *what, const char *name, uint32_t n)
{
	if (qb.debug & (QB_DBG_STATS | QB_DBG_DIRECT))
		qb_dbg("launch record: %s%s (%u objects recorded)", what, name, n);
}

/* The loader's build: the descriptor of its GNU build-id note. */
static uint64_t loader_build(void)
{
	const struct dso *l = qb.ldso;
	for (size_t i = 0; i < l->phnum; i++) {
		const Phdr *ph = &l->phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *n = l->base + ph->p_vaddr, *end = n + ph->p_filesz;
		while (end - n >= 12) {
			uint32_t w[3];
			memcpy(w, n, sizeof w);
			size_t name = (w[0] + 3) & ~(size_t)3, desc = (w[1] + 3) & ~(size_t)3;
			if (name > (size_t)(end - n) - 12 || desc > (size_t)(end - n) - 12 - name)
				break;
			if (w[2] == NT_GNU_BUILD_ID && w[0] == 4 && !memcmp(n + 12, "GNU", 4))
				return qb_build_id(n + 12 + name, w[1]);
			n += 12 + name + desc;
		}
	}
	return 0;
}

/* Is x the object entry o describes? */
static int same(const struct dso *x, const struct qb_launch_obj *o, uint64_t *ldso_id)
{
	uint64_t id = (uint64_t)o->id[1] << 32 | o->id[0];
	if (o->count > x->nsyms)
		return 0;
	if (x == qb.main)
		return id == 0;
	if (x->is_ldso) {
		if (!*ldso_id)
			*ldso_id = loader_build();
		return id == *ldso_id && o->count == 0;
	}
	return id && id == fast_of(x)->self_id;
}

static void end(void)
{
	for (struct dso *x = qb.head; x; x = x->next)
		fast_of(x)->acount = 0;
	qb_free(bases);
	bases = 0;
	nbases = 0;
}

/* A preloaded library the record does not hold (a tool's, such as
 * valgrind's) leaves every answer as it is when it defines none of the
 * names the record answers, as the record's filter of them tells (a
 * "maybe" declines). */
static int harmless(struct dso *x)
{
	if (!x->preloaded)
		return 0;
	for (size_t i = 1; i < x->nsyms; i++) {
		const Sym *s = x->syms + i;
		if (!s->st_shndx || ST_BIND(s->st_info) == STB_LOCAL || s->st_name >= x->dyn.strsz)
			continue;
		uint32_t h = fast_of(x)->pre_gnu ? fast_of(x)->pre_gnu[i] : qb_gnu_hash(x->strings + s->st_name);
		if (qb_names_maybe(names, nnames, h))
			return 0;
	}
	return 1;
}

hidden void qb_launch_changed(void)
{
	static int decided;
	if (decided++) {
		end();
		return;
	}
	const char *tab = fast_of(qb.main)->launch_tab;
	uint32_t n = 0, k = 0;
	const struct qb_launch_obj *o = tab ? qb_table_launch(tab, &n, &names, &nnames) : 0;
	uint64_t ldso_id = 0;
	struct dso *x = qb.head, **at;
	if (!o || qb.head != qb.main || !(bases = qb_calloc(n, sizeof *bases + sizeof *at)))
		return;
	at = (struct dso **)(bases + n);
	for (; x && x->global; x = x->gnext)
		if (k < n && same(x, &o[k], &ldso_id))
			at[k++] = x;
		else if (!harmless(x))
			break;
	if (x || k != n) {
		say("declined: the start-up load is not the one linkopt recorded at ",
			x ? x->name : "its end", n);
		end();
		return;
	}
	for (k = 0; k < n; k++) {
		bases[k] = (size_t)at[k]->base;
		fast_of(at[k])->ans = (const struct qb_launch_ans *)(tab + o[k].ans_off);
		fast_of(at[k])->acount = o[k].count;
	}
	nbases = n;
	say("held", "", n);
}

/* What the engine reads to bind p's references from the record. */
hidden int qb_launch_prepare(struct dso *p, struct qb_prepared *s)
{
	if (!fast_of(p)->acount || p->is_ldso)
		return 0;
	s->ans = fast_of(p)->ans;
	s->acount = fast_of(p)->acount;
	s->bases = bases;
	s->nbases = nbases;
	return 1;
}
