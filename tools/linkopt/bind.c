/* The direct-binding decisions (bind.h): which needed library each symbol
 * of an object binds to, agreed by every given program's load, or why it
 * takes the standard lookup; the pieces of that lookup's rule on linkopt's
 * reading of the objects; and the scope checks and answers the tables
 * record (docs/FORMAT.md 2.4-2.6). Finding definitions is defscope.c's. */
#include "bind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appview.h"
#include "index.h"
#include "qbtable.h"

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
