#include "bind.h"

#include <stdlib.h>
#include <string.h>

#include "elfhash.h"
#include "qbtable.h"
#include "appview.h"
#include "tables.h"
#include "index.h"
#include "objcache.h"

#include <stdio.h>


int symbol_exported(const struct elf *e, uint32_t i)
{
	Elf64_Sym s;
	elf_sym_get(e, i, &s);
	unsigned b = ELF64_ST_BIND(s.st_info), t = ELF64_ST_TYPE(s.st_info);
	unsigned vis = ELF64_ST_VISIBILITY(s.st_other);
	if (s.st_shndx == SHN_UNDEF || !s.st_name)
		return 0;
	if (b != STB_GLOBAL && b != STB_WEAK && b != STB_GNU_UNIQUE)
		return 0;
	if (t == STT_SECTION || t == STT_FILE)
		return 0;
	if (vis == STV_HIDDEN || vis == STV_INTERNAL)
		return 0;
	/* a hidden (non-default) version only answers versioned references */
	return 1;
}

static int grow(struct defmap *m)
{
	size_t nsl = m->mask ? 2 * (m->mask + 1) : 1024;
	uint32_t *sl = calloc(nsl, sizeof *sl);
	if (!sl)
		return -1;
	for (size_t i = 0; m->slots && i <= m->mask; i++) {
		if (!m->slots[i])
			continue;
		uint32_t h = m->nodes[m->slots[i] - 1].hash;
		size_t j = h & (nsl - 1);
		while (sl[j])
			j = (j + 1) & (nsl - 1);
		sl[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = sl;
	m->mask = nsl - 1;
	return 0;
}

static size_t slot_of(const struct defmap *m, const char *name, uint32_t h)
{
	size_t j = h & m->mask;
	while (m->slots[j]) {
		const struct defnode *d = &m->nodes[m->slots[j] - 1];
		if (d->hash == h && !strcmp(d->name, name))
			break;
		j = (j + 1) & m->mask;
	}
	return j;
}

int defmap_build(struct defmap *m, const struct closure *c, unsigned first_lib)
{
	return defmap_build_range(m, c, first_lib, c->n);
}

int defmap_build_range(struct defmap *m, const struct closure *c, unsigned first_lib, unsigned end_lib)
{
	memset(m, 0, sizeof *m);
	size_t nnames = 0;
	for (unsigned l = first_lib; l < end_lib && l < c->n; l++) {
		const struct elf *e = &c->libs[l].e;
		for (uint32_t i = 1; i < e->nsyms; i++) {
			if (!symbol_exported(e, i))
				continue;
			if (m->n == m->cap) {
				size_t nc = m->cap ? 2 * m->cap : 4096;
				struct defnode *nn = realloc(m->nodes, nc * sizeof *nn);
				if (!nn)
					return -1;
				m->nodes = nn;
				m->cap = nc;
			}
			if (2 * (nnames + 1) > m->mask && grow(m) < 0)
				return -1;
			const char *name = elf_sym_name(e, i);
			uint32_t h = qb_gnu_hash(name);
			struct defnode *d = &m->nodes[m->n];
			*d = (struct defnode){ name, h, l, i, 0 };
			size_t j = slot_of(m, name, h);
			if (!m->slots[j]) {
				m->slots[j] = (uint32_t)++m->n;
				nnames++;
				continue;
			}
			uint32_t k = m->slots[j];
			while (m->nodes[k - 1].next)
				k = m->nodes[k - 1].next;
			m->nodes[k - 1].next = (uint32_t)++m->n;
		}
	}
	if (!m->slots && grow(m) < 0)
		return -1;
	return 0;
}

const struct defnode *defmap_find(const struct defmap *m, const char *name)
{
	size_t j = slot_of(m, name, qb_gnu_hash(name));
	return m->slots[j] ? &m->nodes[m->slots[j] - 1] : NULL;
}

void defmap_free(struct defmap *m)
{
	free(m->slots);
	free(m->nodes);
	memset(m, 0, sizeof *m);
}

int defscope_init(struct defscope *s, const struct closure *c, unsigned first, unsigned end)
{
	memset(s, 0, sizeof *s);
	s->c = c;
	s->first = first;
	s->end = end < c->n ? end : c->n;
	s->nat = objcache_nserial();
	s->at = malloc((s->nat ? s->nat : 1) * sizeof *s->at);
	if (!s->at)
		return -1;
	for (uint32_t k = 0; k < s->nat; k++)
		s->at[k] = -1;
	for (unsigned l = first; l < s->end && !s->use_map; l++) {
		struct cobj *o = c->libs[l].obj;
		/* an object twice in the range is listed twice by a defmap */
		if (!o || s->at[o->serial] >= 0)
			s->use_map = 1;
		else if (cobj_index(o) < 0)
			return -1;
		else
			s->at[o->serial] = (int32_t)l;
	}
	if (s->use_map)
		return defmap_build_range(&s->map, c, first, s->end);
	return 0;
}

static int push_def(struct defscope *s, size_t n, uint32_t lib, uint32_t sym)
{
	if (n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 64;
		struct defref *b = realloc(s->buf, nc * sizeof *b);
		if (!b)
			return -1;
		s->buf = b;
		s->cap = nc;
	}
	s->buf[n] = (struct defref){ lib, sym };
	return 0;
}

static int by_lib_sym(const void *a, const void *b)
{
	const struct defref *x = a, *y = b;
	if (x->lib != y->lib)
		return x->lib < y->lib ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

/* Puts s->buf[0..n) in closure order. A long list (a vague name every
 * library defines) goes by object: one object's definitions of a name are
 * one run of its chain, in symbol order (cobj_index), so each run is
 * moved whole, objects taken in closure order. */
static int order_defs(struct defscope *s, size_t n)
{
	struct defref *b = s->buf;
	if (n <= 16) {
		for (size_t i = 1; i < n; i++) {
			struct defref x = b[i];
			size_t j = i;
			while (j && (b[j - 1].lib > x.lib || (b[j - 1].lib == x.lib && b[j - 1].sym > x.sym))) {
				b[j] = b[j - 1];
				j--;
			}
			b[j] = x;
		}
		return 0;
	}
	if (!s->runat) {
		s->runat = malloc((s->end ? s->end : 1) * sizeof *s->runat);
		if (!s->runat)
			return -1;
		for (unsigned l = 0; l < s->end; l++)
			s->runat[l] = -1;
	}
	struct defref *o = malloc(n * sizeof *o);
	if (!o)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (s->runat[b[i].lib] < 0)
			s->runat[b[i].lib] = (int32_t)i;
	size_t k = 0;
	for (unsigned l = s->first; l < s->end; l++) {
		if (s->runat[l] < 0)
			continue;
		for (size_t i = (size_t)s->runat[l]; i < n && b[i].lib == l; i++)
			o[k++] = b[i];
		s->runat[l] = -1;
	}
	if (k == n)
		memcpy(b, o, n * sizeof *o);
	else  /* not in runs after all: the general way */
		qsort(b, n, sizeof *b, by_lib_sym);
	free(o);
	return 0;
}

int defscope_find(struct defscope *s, const char *name, const struct defref **out)
{
	size_t n = 0;
	*out = s->buf;
	if (s->use_map) {
		const struct defmap *m = &s->map;
		for (const struct defnode *d = defmap_find(m, name); d; d = d->next ? &m->nodes[d->next - 1] : NULL)
			if (push_def(s, n++, d->lib, d->sym) < 0)
				return -1;
		*out = s->buf;
		return (int)n;
	}
	int sorted = 1;
	for (uint32_t k = symindex_first(name, qb_gnu_hash(name)); k; k = symindex_def(k)->next) {
		const struct symdef *d = symindex_def(k);
		int32_t l = d->obj->serial < s->nat ? s->at[d->obj->serial] : -1;
		if (l < 0)
			continue;
		if (n && (s->buf[n - 1].lib > (uint32_t)l || (s->buf[n - 1].lib == (uint32_t)l && s->buf[n - 1].sym > d->sym)))
			sorted = 0;
		if (push_def(s, n++, (uint32_t)l, d->sym) < 0)
			return -1;
	}
	if (!sorted && order_defs(s, n) < 0)
		return -1;
	*out = s->buf;
	return (int)n;
}

void defscope_free(struct defscope *s)
{
	free(s->at);
	free(s->runat);
	free(s->buf);
	defmap_free(&s->map);
	memset(s, 0, sizeof *s);
}

uint64_t lib_symtab_id(const struct lib *l)
{
	return l->obj ? cobj_symtab_id(l->obj) : elf_symtab_id(&l->e);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int interposed(const struct bind_opts *o, const char *name)
{
	return o->ninterpose && bsearch(&name, o->interpose, o->ninterpose, sizeof *o->interpose, cmpstr);
}

int vague_name(const char *n)
{
	return !strncmp(n, "_ZTI", 4) || !strncmp(n, "_ZTS", 4) || !strncmp(n, "_ZTV", 4);
}

/* Does definition d satisfy a reference that requires version need (NULL:
 * unversioned)? The loader's rule, on linkopt's reading of the objects. */
static int sym_version_ok(const struct elf *e, uint32_t i, const struct qb_verreq *need)
{
	uint16_t vs = elf_versym(e, i);
	struct qb_verdef_ent def;
	return qb_version_match(vs, e->versym_off != 0, elf_verdef_ent(e, vs, &def) ? &def : NULL, need);
}

/* Is symbol i of e a definition the loader's standard lookup accepts for
 * a reference of that name requiring need? (The name is the caller's.) */
int lookup_accepts(const struct elf *e, uint32_t i, const struct qb_verreq *need)
{
	Elf64_Sym s;
	elf_sym_get(e, i, &s);
	return qb_def_accepted(s.st_shndx, s.st_info, s.st_value) && sym_version_ok(e, i, need);
}

static int lib_nodirect(const struct elf *e, uint32_t sym)
{
	if (e->flags_1 & DF_1_NODIRECT)
		return 1;
	if (e->syminfo_off && (uint64_t)sym * 4 + 4 <= e->syminfo_size)
		return rd16(e->buf + e->syminfo_off + 4ull * sym + 2) & SYMINFO_FLG_NOEXTDIRECT;
	return 0;
}

/* The definitions the loader's standard lookup can reach from an object
 * of a program's load, in its order: the global scope, then (for a
 * dlopened module) the module's own libraries. The program (libs[0]) and
 * DF_1_INTERPOSE objects are left out: the loader checks them before any
 * direct binding. */
static int view_defs(struct defscope *m, const struct appview *v)
{
	return defscope_init(m, &v->load, 1, v->load.n);
}

/* Definitions of name in m; a lookup that runs out of memory finds none
 * and marks *oom (bind_compute then fails). */
unsigned find_defs(struct defscope *m, const char *name, const struct defref **d, int *oom)
{
	int n = defscope_find(m, name, d);
	if (n < 0) {
		*oom = 1;
		return 0;
	}
	return (unsigned)n;
}

/* The object of v's load whose definition of name (version need) the
 * standard lookup picks, or -1. */
static int view_pick(struct defscope *m, const struct appview *v, const char *name,
	const struct qb_verreq *need, int *oom)
{
	const struct defref *d;
	unsigned n = find_defs(m, name, &d, oom);
	for (unsigned i = 0; i < n; i++) {
		const struct elf *e = &v->load.libs[d[i].lib].e;
		if (e->flags_1 & DF_1_INTERPOSE)
			continue;
		if (lookup_accepts(e, d[i].sym, need))
			return (int)d[i].lib;
	}
	return -1;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Does every program's load order agree that DT_NEEDED entry dynidx of
 * the object supplies name? */
static int views_agree(const struct closure *c, struct defscope *vm, const char *name,
	const struct qb_verreq *need,
	int dynidx, const struct bind_opts *o, int *oom)
{
	int bad = 0, good = 0;
	for (unsigned k = 0; k < c->nviews; k++) {
		const struct appview *v = c->views[k];
		int want = dynidx == SYMINFO_BT_PARENT ? v->parent :
			   v->load.libs[v->self].dep ? v->load.libs[v->self].dep[dynidx] : -1;
		int got = view_pick(&vm[k], v, name, need, oom);
		if (got == want && got >= 0) {
			good++;
			continue;
		}
		bad++;
		if (o->verbose)
			printf("%s: %s: the loader's lookup from %s finds it in %s, not %s: standard lookup\n",
			       c->libs[0].path, name, v->app, got < 0 ? "no library" : base(v->load.libs[got].path),
			       want < 0 ? "?" : base(v->load.libs[want].path));
	}
	if (bad && good && o->verbose)
		printf("%s: %s: the programs' load orders disagree: standard lookup\n", c->libs[0].path, name);
	return !bad;
}

struct refs {
	unsigned char *ref;
	uint32_t nsyms;
};

static void mark_ref(void *arg, const struct rel *r)
{
	struct refs *f = arg;
	if (r->sym < f->nsyms)
		f->ref[r->sym] = 1;
}

/* The symbols the object's relocations name. */
unsigned char *referenced(const struct elf *e)
{
	struct refs f = { calloc(e->nsyms ? e->nsyms : 1, 1), e->nsyms };
	if (f.ref)
		elf_each_rel(e, mark_ref, &f);
	return f.ref;
}

/* Where the standard lookup from the start-up load of program view v
 * finds name (version need): the first object in load order whose
 * definition it accepts. Recorded only when that object's identity is
 * final now: the object itself (identity 0) or a library of its closure
 * (cfiles: c's libraries by file), which linkopt wrote before it. The
 * program's own definitions come first; it is written last, so a name it
 * defines gets nothing. */
static struct scope_def scope_pick(const struct filemap *cfiles, const struct appview *v,
	struct defscope *prog, struct defscope *libs, const char *name, const struct qb_verreq *need, int *oom)
{
	struct scope_def none = { 0, 0 };
	const struct defref *d;
	unsigned n = find_defs(prog, name, &d, oom);
	for (unsigned i = 0; i < n; i++)
		if (lookup_accepts(&v->load.libs[0].e, d[i].sym, need))
			return none;
	/* libs holds the whole load in order: the start-up part first */
	n = find_defs(libs, name, &d, oom);
	for (unsigned i = 0; i < n && d[i].lib < v->nstart; i++) {
		const struct lib *L = &v->load.libs[d[i].lib];
		if (!lookup_accepts(&L->e, d[i].sym, need))
			continue;
		if (d[i].lib == v->self)
			return (struct scope_def){ 0, d[i].sym };
		uint32_t k;
		if (filemap_get(cfiles, L->dev, L->ino, &k))
			return (struct scope_def){ lib_symtab_id(L), d[i].sym };
		return none;
	}
	return none;
}

/* Symbol i of e as a reference the lookup answers by its name: not local,
 * named; *s its entry, *need its version need (NULL: none). */
int named_ref(const struct elf *e, uint32_t i, Elf64_Sym *s, struct qb_verreq *req,
	const struct qb_verreq **need)
{
	elf_sym_get(e, i, s);
	if (ELF64_ST_BIND(s->st_info) == STB_LOCAL || !s->st_name)
		return 0;
	*need = elf_verreq(e, i, req) ? req : NULL;
	return 1;
}

/* The scope definitions of the object's references that are not bound
 * directly, from the first program view whose start-up load holds it
 * (vm: the views' definitions, view_defs). */
static int scope_defs(const struct closure *c, struct defscope *vm, const struct syminfo *si,
	struct scope_def *sd)
{
	const struct elf *obj = &c->libs[0].e;
	unsigned k = 0;
	while (k < c->nviews && c->views[k]->self >= c->views[k]->nstart)
		k++;
	if (k == c->nviews)
		return 0;
	const struct appview *v = c->views[k];
	struct defscope prog = { 0 };
	struct filemap cfiles = { 0 };
	int oom = 0;
	unsigned char *ref = referenced(obj);
	for (unsigned l = 1; l < c->n && !oom; l++)
		oom = filemap_put(&cfiles, c->libs[l].dev, c->libs[l].ino, l) < 0;
	if (!ref || oom || defscope_init(&prog, &v->load, 0, 1) < 0) {
		defscope_free(&prog);
		filemap_free(&cfiles);
		free(ref);
		return -1;
	}
	for (uint32_t i = 1; i < obj->nsyms && !oom; i++) {
		if (!ref[i] || (si[i].flags & SYMINFO_FLG_DIRECT))
			continue;
		Elf64_Sym s;
		struct qb_verreq req;
		const struct qb_verreq *need;
		if (!named_ref(obj, i, &s, &req, &need))
			continue;
		sd[i] = scope_pick(&cfiles, v, &prog, &vm[k], elf_sym_name(obj, i), need, &oom);
	}
	defscope_free(&prog);
	filemap_free(&cfiles);
	free(ref);
	return oom ? -1 : 0;
}

/* Could the C library's large-file fallback (the loader's, ldso/lfs64.c)
 * take a reference to name that nothing defines? Those names end in "64"
 * (readdir64_r aside, which holds it). */
int lfs64_form(const char *name)
{
	return strstr(name, "64") != NULL;
}

int bind_compute(const struct closure *c, const struct bind_opts *o, struct syminfo *si,
	uint32_t *hint, struct scope_def *sd)
{
	const struct elf *obj = &c->libs[0].e;
	struct defscope m;
	if (defscope_init(&m, c, 1, c->n) < 0) {
		defscope_free(&m);
		return -1;
	}
	struct defscope *vm = c->nviews ? calloc(c->nviews, sizeof *vm) : NULL;
	for (unsigned k = 0; k < c->nviews; k++)
		if (!vm || view_defs(&vm[k], c->views[k]) < 0) {
			for (unsigned j = 0; vm && j <= k; j++)
				defscope_free(&vm[j]);
			free(vm);
			defscope_free(&m);
			return -1;
		}
	int self_nodirect = o->nodirect || (obj->flags_1 & DF_1_NODIRECT);
	int oom = 0;
	si[0] = (struct syminfo){ 0, 0 };
	for (uint32_t i = 1; i < obj->nsyms; i++) {
		Elf64_Sym s;
		elf_sym_get(obj, i, &s);
		const char *name = elf_sym_name(obj, i);
		if (s.st_shndx != SHN_UNDEF) {
			uint16_t f = (self_nodirect || interposed(o, name)) ? SYMINFO_FLG_NOEXTDIRECT : 0;
			si[i] = (struct syminfo){ SYMINFO_BT_SELF, f };
			continue;
		}
		struct qb_verreq req;
		const struct qb_verreq *need = elf_verreq(obj, i, &req) ? &req : NULL;
		struct defref first = { 0, 0 };
		int have = 0;
		unsigned nlibs = 0, lastlib = ~0u;
		const struct defref *d;
		unsigned n = find_defs(&m, name, &d, &oom);
		for (unsigned j = 0; j < n; j++) {
			if (d[j].lib != lastlib) {
				nlibs++;
				lastlib = d[j].lib;
			}
			if (!have && sym_version_ok(&c->libs[d[j].lib].e, d[j].sym, need)) {
				first = d[j];
				have = 1;
			}
		}
		uint16_t reason = 0;
		const struct lib *L = have ? &c->libs[first.lib] : NULL;
		if (!have || L->dynidx < 0)
			reason = QB_SYMINFO_NOTFOUND;
		else if (interposed(o, name) || lib_nodirect(&L->e, first.sym))
			reason = QB_SYMINFO_NODIRECT;
		else {
			Elf64_Sym ds;
			elf_sym_get(&L->e, first.sym, &ds);
			unsigned b = ELF64_ST_BIND(ds.st_info);
			if (b == STB_WEAK || b == STB_GNU_UNIQUE || vague_name(name))
				reason = QB_SYMINFO_VAGUE;
			else if (nlibs > 1)
				reason = QB_SYMINFO_MULTI;
			else if (c->nviews && !views_agree(c, vm, name, need, L->dynidx, o, &oom))
				reason = QB_SYMINFO_MULTI;
		}
		if (reason) {
			si[i] = (struct syminfo){ SYMINFO_BT_NONE, reason };
		} else {
			si[i] = (struct syminfo){ (uint16_t)L->dynidx, SYMINFO_FLG_DIRECT };
			if (hint)
				hint[i] = first.sym;
		}
	}
	int rc = oom ? -1 : sd ? scope_defs(c, vm, si, sd) : 0;
	for (unsigned k = 0; k < c->nviews; k++)
		defscope_free(&vm[k]);
	free(vm);
	defscope_free(&m);
	return rc;
}
