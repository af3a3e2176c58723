/* The application view (appview.h): a file is bound as the programs given
 * load it. Owns each program's start-up load (searched once per run and
 * kept while the run lasts), the choice of the programs whose loads count
 * for a file (for a module, those that can host it, and its parent among
 * their objects), and closure_build / closure_free, the closure every mode
 * binds against. */
#include "appview.h"
#include "defscope.h"
#include "output.h"
#include "qbtable.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>

#ifndef DF_1_PIE
#define DF_1_PIE 0x08000000
#endif

int appview_is_program(const struct elf *e)
{
	if (!e->interp)
		return 0;
	if (e->eh.e_type == ET_EXEC || (e->flags_1 & DF_1_PIE))
		return 1;
	/* glibc's libc.so.6 has PT_INTERP too, and a SONAME */
	int found;
	elf_dyn_get(e, DT_SONAME, &found);
	return !found;
}

int appview_collect(char **files, int nfiles, const char ***apps, unsigned *napps)
{
	int given = nfiles < 0;
	for (int i = 0; i < (given ? 1 : nfiles); i++) {
		struct elf e;
		int prog = given || (elf_load_file(&e, files[i]) == 0 && e.dyn_ph >= 0 && appview_is_program(&e));
		if (!given)
			elf_free(&e);
		for (unsigned k = 0; prog && k < *napps; k++)
			prog = strcmp((*apps)[k], files[i]) != 0;
		if (!prog)
			continue;
		const char **n = realloc(*apps, (*napps + 1) * sizeof *n);
		if (!n)
			return -1;
		n[(*napps)++] = files[i];
		*apps = n;
	}
	return 0;
}

int closure_build(struct elf *obj, const struct search_opts *o, struct closure *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (o->napps) {
		int r = appview_closure(obj, o, c, err, errlen);
		if (r <= 0)
			return r;
	}
	if (closure_start(obj, c, err, errlen) < 0)
		return -1;
	return closure_expand(c, o, 0, err, errlen);
}

void closure_free(struct closure *c)
{
	struct appview **views = c->views;
	unsigned nviews = c->nviews;
	closure_free_libs(c);
	if (nviews)
		appview_free_all(views, nviews);
}

static void view_free(struct appview *v)
{
	if (!v)
		return;
	closure_free(&v->load);
	if (v->progobj)
		objcache_put(v->progobj);
	else
		elf_free(&v->prog);
	free(v);
}

void appview_free_all(struct appview **v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		view_free(v[i]);
	free(v);
}

/* The start-up load of each program of the run, searched once: every
 * file of a 400-library application is bound against the same load of
 * its program, and searching it anew for each file would make the run
 * quadratic in the libraries. A kept load is brought to the run's current
 * version of each file (closure_refresh), searched again when one of them
 * changed what the search reads, and dropped at the end of the run. */
struct startup {
	char *app;
	struct search_opts so;   /* the search it was made with (apps empty) */
	struct cobj *prog;
	struct closure load;     /* libs[0].obj: prog, released here */
	unsigned run;            /* objcache_run() when made */
	struct startup *next;
};
static struct startup *startups;

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_search(const struct search_opts *a, const struct search_opts *b)
{
	if (!same_str(a->root, b->root) || a->nldirs != b->nldirs || a->nabove != b->nabove)
		return 0;
	for (unsigned i = 0; i < a->nldirs; i++)
		if (!same_str(a->ldirs[i], b->ldirs[i]))
			return 0;
	for (unsigned i = 0; i < a->nabove; i++)
		if (!same_str(a->above[i].rpath, b->above[i].rpath) || !same_str(a->above[i].path, b->above[i].path) ||
		    a->above[i].program != b->above[i].program)
			return 0;
	return 1;
}

static void startup_free(struct startup *t)
{
	closure_free(&t->load);
	if (t->prog)
		objcache_put(t->prog);
	for (unsigned i = 0; t->so.ldirs && i < t->so.nldirs; i++)
		free((char *)t->so.ldirs[i]);
	for (unsigned i = 0; t->so.above && i < t->so.nabove; i++) {
		free((char *)t->so.above[i].rpath);
		free((char *)t->so.above[i].path);
	}
	free((char *)t->so.root);
	free((void *)t->so.ldirs);
	free((void *)t->so.above);
	free(t->app);
	free(t);
}

static int dup_str(const char **dst, const char *src)
{
	return !src || (*dst = strdup(src)) ? 0 : -1;
}

/* The search options as kept: their own copies of the strings. */
static int keep_search(struct search_opts *dst, const struct search_opts *src)
{
	const char **ldirs = calloc(src->nldirs + 1, sizeof *ldirs);
	struct qb_chain_link *above = calloc(src->nabove + 1, sizeof *above);
	memset(dst, 0, sizeof *dst);
	dst->ldirs = ldirs;
	dst->above = above;
	if (!ldirs || !above)
		return -1;
	dst->nldirs = src->nldirs;
	dst->nabove = src->nabove;
	dst->verbose = src->verbose;
	int rc = dup_str(&dst->root, src->root);
	for (unsigned i = 0; i < src->nldirs; i++)
		rc |= dup_str(&ldirs[i], src->ldirs[i]);
	for (unsigned i = 0; i < src->nabove; i++) {
		above[i].program = src->above[i].program;
		rc |= dup_str(&above[i].rpath, src->above[i].rpath) | dup_str(&above[i].path, src->above[i].path);
	}
	return rc;
}

/* The kept load of app for search so, current, or NULL (a stale one is
 * dropped). */
static struct startup *startup_find(const char *app, const struct search_opts *so, struct cobj *prog)
{
	for (struct startup **p = &startups; *p; p = &(*p)->next) {
		struct startup *t = *p;
		if (strcmp(t->app, app) || !same_search(&t->so, so))
			continue;
		if (t->run == objcache_run() && t->prog == prog && closure_refresh(&t->load))
			return t;
		*p = t->next;
		startup_free(t);
		return NULL;
	}
	return NULL;
}

/* Keeps a copy of v's start-up load (nothing when out of memory: it is
 * searched again next time). */
static void startup_keep(const struct appview *v, const struct search_opts *so)
{
	struct startup *t = calloc(1, sizeof *t);
	char err[64];
	if (!t || !(t->app = strdup(v->app))) {
		free(t);
		return;
	}
	t->prog = objcache_ref(v->progobj);
	if (keep_search(&t->so, so) < 0) {
		startup_free(t);
		return;
	}
	t->run = objcache_run();
	if (closure_copy(&t->load, &v->load, &t->prog->e, err, sizeof err) < 0) {
		startup_free(t);
		return;
	}
	t->load.libs[0].obj = t->prog;
	t->next = startups;
	startups = t;
}

/* The loader's view of obj when app runs: app's start-up load; when obj
 * is not part of it, the module dlopened on top of it (the search chain
 * of a dlopen starts at the program; ldso/dlopen.c). NULL with *err
 * empty when obj is a program other than app. */
static struct appview *view_build(const char *app, struct elf *obj, const struct stat *ost,
				  const struct search_opts *o, char *err, size_t errlen)
{
	struct appview *v = calloc(1, sizeof *v);
	char why[1024];
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	v->app = app;
	v->parent = -1;
	/* every file of the run reads the program: from the run's objects */
	struct stat pst;
	if (stat(app, &pst) < 0)
		snprintf(why, sizeof why, "%s", strerror(errno));
	else
		v->progobj = objcache_get(app, &pst, why, sizeof why);
	if (!v->progobj || v->progobj->e.dyn_ph < 0) {
		snprintf(err, errlen, "program %s: %s", app, !v->progobj ? why : "not dynamically linked");
		if (v->progobj)
			objcache_put(v->progobj);
		free(v);
		return NULL;
	}
	v->prog = v->progobj->e;
	v->prog.path = app;
	/* only the search of the whole load, not the program's own options */
	struct search_opts so = *o;
	so.apps = NULL;
	so.napps = 0;
	const struct startup *t = startup_find(app, &so, v->progobj);
	if (t) {
		if (closure_copy(&v->load, &t->load, &v->prog, err, errlen) < 0) {
			view_free(v);
			return NULL;
		}
		v->load.libs[0].obj = v->progobj; /* not released by closure_free */
	} else {
		int started = closure_start(&v->prog, &v->load, why, sizeof why) == 0;
		if (started)
			v->load.libs[0].obj = v->progobj;
		if (!started || closure_expand(&v->load, &so, 0, why, sizeof why) < 0) {
			snprintf(err, errlen, "program %s cannot be loaded: %s", app, why);
			view_free(v);
			return NULL;
		}
		startup_keep(v, &so);
	}
	v->nstart = v->load.n;
	for (unsigned i = 0; i < v->load.n; i++)
		if (v->load.libs[i].dev == (unsigned long long)ost->st_dev &&
		    v->load.libs[i].ino == (unsigned long long)ost->st_ino) {
			v->self = i;
			return v;
		}
	if (appview_is_program(obj)) {
		view_free(v);
		err[0] = 0;
		return NULL;
	}
	struct cobj *m;
	int at;
	if (!(m = objcache_get(obj->path, ost, why, sizeof why))) {
		snprintf(err, errlen, "%s", why);
		view_free(v);
		return NULL;
	}
	if ((at = closure_add(&v->load, m, obj->path, 0, why, sizeof why)) < 0 ||
	    closure_expand(&v->load, &so, (unsigned)at, why, sizeof why) < 0) {
		snprintf(err, errlen, "as a module of %s: %s", app, why);
		view_free(v);
		return NULL;
	}
	v->self = (unsigned)at;
	return v;
}

/* The object of v's global scope whose definition the standard lookup
 * picks for name, or -1 (the program and DF_1_INTERPOSE objects, which
 * the loader checks before any direct binding, do not count). */
static int global_pick(struct defscope *m, const struct appview *v, const char *name)
{
	const struct defref *d;
	int n = defscope_find(m, name, &d);
	for (int i = 0; i < n; i++) {
		const struct elf *e = &v->load.libs[d[i].lib].e;
		if (d[i].lib >= v->nstart)
			return -1;
		Elf64_Sym s;
		elf_sym_get(e, d[i].sym, &s);
		if (!(e->flags_1 & DF_1_INTERPOSE) && (s.st_value || ELF64_ST_TYPE(s.st_info) == STT_TLS))
			return (int)d[i].lib;
	}
	return -1;
}

/* A dlopened module takes from its host what no library of its own
 * defines (a Lua C module every lua_* function from liblua). The object
 * of the host's global scope that supplies most of those becomes its
 * parent (SYMINFO_BT_PARENT, docs/FORMAT.md): appended to c with that
 * DT_NEEDED-less index, so bind_compute binds to it like to a needed
 * library, and its identity is recorded for the loader to find it. */
static int add_parent(struct closure *c, struct appview *v0, char *err, size_t errlen)
{
	struct defscope own = { 0 }, glob = { 0 };
	const struct elf *obj = &c->libs[0].e;
	if (defscope_init(&own, c, 1, c->n) < 0 || defscope_init(&glob, &v0->load, 1, v0->load.n) < 0) {
		defscope_free(&own);
		defscope_free(&glob);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	unsigned *count = calloc(v0->nstart, sizeof *count);
	for (uint32_t i = 1; count && i < obj->nsyms; i++) {
		Elf64_Sym s;
		elf_sym_get(obj, i, &s);
		const char *name = elf_sym_name(obj, i);
		const struct defref *d;
		if (s.st_shndx != SHN_UNDEF || !name || !*name || defscope_find(&own, name, &d))
			continue;
		int g = global_pick(&glob, v0, name);
		if (g > 0)
			count[g]++;
	}
	int best = -1;
	for (unsigned k = 1; count && k < v0->nstart; k++)
		if (count[k] && (best < 0 || count[k] > count[best]))
			best = (int)k;
	free(count);
	defscope_free(&own);
	defscope_free(&glob);
	if (best < 0)
		return 0;
	if (closure_grow(c, err, errlen) < 0)
		return -1;
	struct lib *l = &c->libs[c->n++];
	*l = v0->load.libs[best];
	l->dep = NULL;
	l->needed_by = -1;
	l->dynidx = SYMINFO_BT_PARENT;
	v0->parent = best;
	return 0;
}

/* The parent of the module in the other programs' loads: the object of
 * their global scope with the same symbol table. */
static void find_parents(struct closure *c)
{
	const struct appview *v0 = c->views[0];
	if (v0->parent < 0)
		return;
	uint64_t id = lib_symtab_id(&v0->load.libs[v0->parent]);
	for (unsigned k = 1; k < c->nviews; k++) {
		struct appview *v = c->views[k];
		for (unsigned i = 1; i < v->nstart && v->self >= v->nstart; i++)
			if (lib_symtab_id(&v->load.libs[i]) == id) {
				v->parent = (int)i;
				break;
			}
	}
}

/* What a module takes from its host: the symbols it leaves undefined, that
 * no object of its own DT_NEEDED closure defines and v's global scope
 * supplies (a Lua C module's lua_* from liblua). 0: v's program cannot be
 * its host. */
static unsigned host_supplies(const struct appview *v, const struct elf *obj)
{
	const struct closure *L = &v->load;
	unsigned *q = malloc(L->n * sizeof *q), n = 0, count = 0;
	char *own = calloc(L->n, 1);
	struct defscope glob = { 0 };
	if (!q || !own || defscope_init(&glob, L, 1, L->n) < 0) {
		defscope_free(&glob);
		free(q);
		free(own);
		return 0;
	}
	own[v->self] = 1;
	q[n++] = v->self;
	for (unsigned i = 0; i < n; i++) {
		const struct lib *l = &L->libs[q[i]];
		for (unsigned k = 0; l->dep && k < l->e.ndyn; k++) {
			int d = l->dep[k];
			if (d >= 0 && !own[d]) {
				own[d] = 1;
				q[n++] = (unsigned)d;
			}
		}
	}
	for (uint32_t i = 1; i < obj->nsyms; i++) {
		Elf64_Sym s;
		elf_sym_get(obj, i, &s);
		const char *name = elf_sym_name(obj, i);
		if (s.st_shndx != SHN_UNDEF || !name || !*name)
			continue;
		int mine = 0;
		const struct defref *d;
		int n = defscope_find(&glob, name, &d);
		for (int j = 0; j < n && !mine; j++)
			mine = own[d[j].lib];
		if (!mine && global_pick(&glob, v, name) > 0)
			count++;
	}
	defscope_free(&glob);
	free(q);
	free(own);
	return count;
}

/* The programs whose loads count for obj. A file some programs load at
 * start-up: those programs (the others would only dlopen it, which is not
 * what they do). A file none loads, a module: the programs that can host
 * it, those whose global scope supplies what it takes from a host; all of
 * them when it takes nothing from one. The others' views are freed. */
static unsigned select_views(struct appview **v, unsigned nv, const struct elf *obj, int verbose)
{
	unsigned keep = 0, startup = 0, hosts = 0;
	unsigned *score = calloc(nv, sizeof *score);
	for (unsigned k = 0; k < nv; k++)
		startup += v[k]->self < v[k]->nstart;
	for (unsigned k = 0; score && !startup && k < nv; k++)
		hosts += (score[k] = host_supplies(v[k], obj)) > 0;
	for (unsigned k = 0; k < nv; k++) {
		int in = startup ? v[k]->self < v[k]->nstart : !hosts || (score && score[k] > 0);
		if (in) {
			v[keep++] = v[k];
			continue;
		}
		if (verbose && !startup)
			printf("%s: a module of the programs that supply its host symbols; %s supplies none: left out\n",
			       obj->path, v[k]->app);
		view_free(v[k]);
	}
	free(score);
	return keep;
}

int appview_closure(struct elf *obj, const struct search_opts *o, struct closure *c, char *err, size_t errlen)
{
	struct stat st;
	memset(c, 0, sizeof *c);
	if (stat(obj->path, &st) < 0) {
		snprintf(err, errlen, "cannot stat: %m");
		return -1;
	}
	struct appview **views = calloc(o->napps, sizeof *views);
	unsigned nv = 0;
	if (!views) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned a = 0; a < o->napps; a++) {
		struct appview *v = view_build(o->apps[a], obj, &st, o, err, errlen);
		if (v)
			views[nv++] = v;
		else if (err[0]) {
			appview_free_all(views, nv);
			return -1;
		}
	}
	nv = select_views(views, nv, obj, o->verbose);
	if (!nv) {
		free(views);
		return 1;
	}
	/* obj's closure as the first program loads it: obj, then, breadth
	 * first, the objects its DT_NEEDED entries resolved to there */
	const struct closure *L = &views[0]->load;
	int *map = malloc(L->n * sizeof *map), *back = malloc(L->n * sizeof *back);
	if (!map || !back || closure_start(obj, c, err, errlen) < 0) {
		free(map);
		free(back);
		appview_free_all(views, nv);
		snprintf(err, errlen, "out of memory");
		closure_free(c);
		return -1;
	}
	c->borrowed = 1;
	c->views = views;
	c->nviews = nv;
	for (unsigned i = 0; i < L->n; i++)
		map[i] = -1;
	map[views[0]->self] = 0;
	back[0] = (int)views[0]->self;
	for (unsigned q = 0; q < c->n; q++) {
		const struct lib *src = &L->libs[back[q]];
		for (unsigned k = 0; k < src->e.ndyn; k++) {
			int d = src->dep[k];
			if (d < 0)
				continue;
			if (map[d] < 0) {
				if (c->n == c->cap) {
					struct lib *nl = realloc(c->libs, 2 * c->cap * sizeof *nl);
					if (!nl) {
						snprintf(err, errlen, "out of memory");
						free(map);
						free(back);
						return -1;
					}
					c->libs = nl;
					c->cap *= 2;
				}
				struct lib *l = &c->libs[c->n];
				*l = L->libs[d];
				l->dep = NULL;
				l->needed_by = (int)q;
				l->dynidx = q == 0 ? (int)k : -1;
				map[d] = (int)c->n;
				back[c->n++] = d;
			} else if (q == 0 && map[d] != 0 && c->libs[map[d]].dynidx < 0) {
				c->libs[map[d]].dynidx = (int)k;
			}
			if (q == 0 && k < c->libs[0].e.ndyn)
				c->libs[0].dep[k] = map[d];
		}
	}
	free(map);
	free(back);
	/* a module every program dlopens */
	for (unsigned k = 0; k < nv; k++)
		if (views[k]->self < views[k]->nstart)
			return 0;
	if (add_parent(c, views[0], err, errlen) < 0)
		return -1;
	find_parents(c);
	return 0;
}

int appview_check_programs(const struct search_opts *o)
{
	int rc = 0;
	struct search_opts so = *o;
	so.apps = NULL;
	so.napps = 0;
	for (unsigned a = 0; a < o->napps; a++) {
		struct elf prog;
		struct closure c;
		char why[1024];
		memset(&c, 0, sizeof c);
		if (lo_load_elf(&prog, o->apps[a]) < 0) {
			rc = report(o->apps[a], "%s", prog.err);
		} else if (prog.dyn_ph < 0) {
			rc = report(o->apps[a], "not dynamically linked");
		} else if (closure_start(&prog, &c, why, sizeof why) < 0 || closure_expand(&c, &so, 0, why, sizeof why) < 0) {
			rc = report(o->apps[a], "cannot be loaded: %s", why);
		}
		closure_free(&c);
		elf_free(&prog);
	}
	return rc;
}
