/* A file's dependency closure as the loader finds it (search.h): the
 * library search through common/libsearch.c, the loader's "already
 * loaded" rule, --root, and closures kept in step with the outputs a run
 * stages (closure_refresh, closure_copy). */
#include "search.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include "libsearch.h"
#include "index.h"

static const char *arch_name(const struct elf *e) { return e->is64 ? "x86_64" : "i386"; }

int is_musl_object(const struct elf *e)
{
	if (e->interp && (strstr(e->interp, "ld-musl") || strstr(e->interp, "quickbind")))
		return 1;
	for (unsigned i = 0; i < e->ndyn; i++)
		if (e->dyn[i].d_tag == DT_NEEDED) {
			const char *n = elf_dynstr(e, e->dyn[i].d_un.d_val);
			if (n && (!strcmp(n, "libc.so") || !strncmp(n, "libc.musl-", 10)))
				return 1;
		}
	return 0;
}

/* The file an absolute path names in an image, as a program chrooted into
 * it sees it: symbolic links are followed inside the image, an absolute
 * target (/usr/lib/libz.so.1 -> /lib/libz.so.1.3) taken from its root
 * too, and ".." never leaves it. out: the image's path to the file. */
static void in_root(const char *root, const char *path, char *out, size_t len)
{
	char rest[PATH_MAX], cur[PATH_MAX] = "", full[2 * PATH_MAX], target[PATH_MAX], next[2 * PATH_MAX];
	snprintf(rest, sizeof rest, "%s", path);
	const char *p = rest;
	for (int hops = 0; *p;) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (!n)
			break;
		size_t cl = strlen(cur);
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(cur, '/');
			if (slash)
				*slash = 0;
			p += n;
			continue;
		}
		if (cl + 1 + n >= sizeof cur)
			break;
		snprintf(full, sizeof full, "%s%s/%.*s", root, cur, (int)n, p);
		ssize_t tl = readlink(full, target, sizeof target - 1);
		if (tl <= 0 || ++hops > 40) {
			snprintf(cur + cl, sizeof cur - cl, "/%.*s", (int)n, p);
			p += n;
			continue;
		}
		target[tl] = 0;
		if (target[0] == '/')
			cur[0] = 0;
		if ((size_t)snprintf(next, sizeof next, "%s/%s", target, p + n) >= sizeof rest)
			break;
		memcpy(rest, next, strlen(next) + 1);
		p = rest;
	}
	snprintf(out, len, "%s%s", root, cur[0] ? cur : "/");
}

void rooted(const struct search_opts *o, const char *p, char *out, size_t len)
{
	if (o->root && p[0] == '/')
		in_root(o->root, p, out, len);
	else
		snprintf(out, len, "%s", p);
}

/* The closure's objects by DT_NEEDED name and path, by SONAME and by
 * file, for the loader's "already loaded" rules: brought up to date with
 * the objects appended since the last question (objects are only ever
 * appended, and what these keys read never changes). */
struct closure_ix {
	unsigned synced;
	struct strmap names;   /* shortname and path: the first object of each */
	struct strmap sonames;
	struct filemap files;
};

static struct closure_ix *ix_sync(struct closure *c)
{
	if (!c->ix && !(c->ix = calloc(1, sizeof *c->ix)))
		return NULL;
	struct closure_ix *x = c->ix;
	for (; x->synced < c->n; x->synced++) {
		const struct lib *l = &c->libs[x->synced];
		int found;
		uint64_t v = elf_dyn_get(&l->e, DT_SONAME, &found);
		const char *so = found ? elf_dynstr(&l->e, v) : NULL;
		if ((l->shortname && strmap_put(&x->names, l->shortname, x->synced) < 0) ||
		    (l->path && strmap_put(&x->names, l->path, x->synced) < 0) ||
		    (so && strmap_put(&x->sonames, so, x->synced) < 0) ||
		    filemap_put(&x->files, l->dev, l->ino, x->synced) < 0)
			return NULL;
	}
	return x;
}

static void ix_free(struct closure *c)
{
	if (!c->ix)
		return;
	strmap_free(&c->ix->names);
	strmap_free(&c->ix->sonames);
	filemap_free(&c->ix->files);
	free(c->ix);
	c->ix = NULL;
}

/* A file the search reached. musl's loader takes the first file it can
 * open and fails if that is not a usable object, so in strict mode a
 * wrong file is an error; the glibc fallback (lenient) skips it. */
static int take_file(struct closure *c, const struct elf *want, const char *path, struct lib *out,
		     int strict, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return 0;
	const struct closure_ix *x = ix_sync(c);
	uint32_t at;
	if (!x) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (filemap_get(&x->files, st.st_dev, st.st_ino, &at))
		return 2 + (int)at; /* already loaded */
	char why[sizeof ((struct elf *)0)->err];
	struct cobj *o = NULL;
	int bad = !S_ISREG(st.st_mode) || !(o = objcache_get(path, &st, why, sizeof why)); /* as this run leaves it */
	if (!bad && (o->e.is64 != want->is64 || o->e.eh.e_machine != want->eh.e_machine)) {
		objcache_put(o);
		if (strict)
			snprintf(err, errlen, "%s: wrong ELF class or machine", path);
		return strict ? -1 : 0;
	}
	if (bad) {
		if (strict)
			snprintf(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ? why : "not a regular file");
		return strict ? -1 : 0;
	}
	out->path = strdup(path);
	if (!out->path) {
		objcache_put(o);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	out->obj = o;
	out->e = o->e;
	out->e.path = out->path;
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	return 1;
}

/* The state of one search through common/libsearch.c. */
struct finder {
	struct closure *c;
	const struct search_opts *o;
	const struct elf *want;
	struct lib *out;
	int result;           /* take_file's answer for the file found */
	char *err;
	size_t errlen;
	char origin[PATH_MAX];
	char tried[1024];     /* the directories searched, for "not found" */
};

/* Adds the directory of path to f->tried once; a list too long to say
 * ends in "...". */
static void note_tried(struct finder *f, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) : 1, have = strlen(f->tried);
	if (!slash)
		path = ".";
	else if (!dlen)
		dlen = 1;
	for (const char *t = f->tried; *t;) {
		size_t n = strcspn(t, ":");
		if (n == dlen && !strncmp(t, path, dlen))
			return;
		t += n + (t[n] == ':');
	}
	if (have && have + 4 >= sizeof f->tried)
		return;
	if (have + dlen + 5 >= sizeof f->tried) {
		strcpy(f->tried + have, have ? ":..." : "...");
		return;
	}
	snprintf(f->tried + have, sizeof f->tried - have, "%s%.*s", have ? ":" : "", (int)dlen, path);
}

/* The chain: closure entries (their needed_by indices) up to libs[0],
 * then the objects the caller says are above it (o->above). */
static const void *chain_link(void *ctx, const void *obj, struct qb_chain_link *out)
{
	struct finder *f = ctx;
	const struct search_opts *o = f->o;
	if (o->nabove && (const char *)obj >= (const char *)o->above &&
	    (const char *)obj < (const char *)(o->above + o->nabove)) {
		const struct qb_chain_link *l = obj;
		*out = *l;
		return l + 1 < o->above + o->nabove ? l + 1 : NULL;
	}
	const struct lib *lib = obj;
	const struct elf *e = &lib->e;
	int found;
	uint64_t v = elf_dyn_get(e, DT_RUNPATH, &found);
	if (!found)
		v = elf_dyn_get(e, DT_RPATH, &found);
	out->rpath = found ? elf_dynstr(e, v) : NULL;
	/* The kernel gives the loader the program's real path (for its
	 * $ORIGIN, /proc/self/exe). The loader sees files without the
	 * --sysroot prefix; expanded directories are rooted again when tried. */
	const char *p = lib->path;
	out->program = lib == &f->c->libs[0] && (lib->e.interp || lib->e.eh.e_type == ET_EXEC);
	if (out->program && realpath(p, f->origin))
		p = f->origin;
	size_t rl = o->root ? strlen(o->root) : 0;
	if (rl && !strncmp(p, o->root, rl) && p[rl] == '/')
		p += rl;
	out->path = p;
	if (lib->needed_by >= 0)
		return &f->c->libs[lib->needed_by];
	return o->nabove ? o->above : NULL;
}

static int try_file(void *ctx, const char *path, enum qb_search_src src)
{
	struct finder *f = ctx;
	char p[PATH_MAX];
	if (src == QB_FROM_ENV)
		snprintf(p, sizeof p, "%s", path);
	else
		rooted(f->o, path, p, sizeof p);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == ENAMETOOLONG) {
			note_tried(f, p);
			return 0;
		}
		snprintf(f->err, f->errlen, "%s: %s", p, strerror(errno));
		return f->result = -1;
	}
	close(fd);
	f->result = take_file(f->c, f->want, p, f->out, 1, f->err, f->errlen);
	return f->result ? 1 : 0;
}

/* The path file as the loader reads it: quickbind's, else musl's; a
 * missing one means the defaults, an unreadable one no directories. */
static char *path_file(const struct search_opts *o, const char *arch)
{
	static const char *const names[] = { "ld-quickbind", "ld-musl" };
	char p[PATH_MAX];
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/etc/%s-%s.path", o->root ? o->root : "", names[i], arch);
		FILE *f = fopen(p, "re");
		if (!f) {
			if (errno == ENOENT)
				continue;
			return strdup("");
		}
		size_t cap = 4096, n = 0;
		char *buf = malloc(cap);
		while (buf) {
			n += fread(buf + n, 1, cap - n - 1, f);
			if (n < cap - 1)
				break;
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
		fclose(f);
		if (buf)
			buf[n] = 0;
		return buf ? buf : strdup("");
	}
	return strdup(QB_DEFAULT_LIBPATH);
}

/* Returns 0 not found, 1 found (in *out), 2+i the already loaded
 * libs[i], -1 an error written to err. */
static int find_lib(struct closure *c, const struct search_opts *o, unsigned parent, const char *name,
		    struct lib *out, char *err, size_t errlen)
{
	const struct elf *want = &c->libs[0].e;
	char p[PATH_MAX];
	const char *arch = arch_name(want);
	int r;

	if (strchr(name, '/')) {
		rooted(o, name, p, sizeof p);
		return take_file(c, want, p, out, 1, err, errlen);
	}
	if (c->musl && (qb_search_reserved(name) || !strncmp(name, "ld-musl-", 8))) {
		const char *cands[3];
		char a[128], b[128], d[128];
		snprintf(a, sizeof a, "/usr/lib/%s-linux-musl/libc.so", arch);
		snprintf(b, sizeof b, "/lib/ld-musl-%s.so.1", arch);
		snprintf(d, sizeof d, "/lib/libc.musl-%s.so.1", arch);
		cands[0] = a; cands[1] = b; cands[2] = d;
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < 3; i++) {
				if (pass == 0 && o->root)
					rooted(o, cands[i], p, sizeof p);
				else if (pass == 1)
					snprintf(p, sizeof p, "%s", cands[i]);
				else
					continue;
				if ((r = take_file(c, want, p, out, 0, err, errlen)))
					return r;
			}
		return 0;
	}

	/* -L directories first, then LD_LIBRARY_PATH: both searched where
	 * the run searches LD_LIBRARY_PATH. */
	char *env = NULL;
	size_t envlen = o->env_path ? strlen(o->env_path) : 0;
	for (unsigned i = 0; i < o->nldirs; i++)
		envlen += strlen(o->ldirs[i]) + 1;
	if (envlen && (env = calloc(1, envlen + 1))) {
		for (unsigned i = 0; i < o->nldirs; i++) {
			strcat(env, o->ldirs[i]);
			strcat(env, ":");
		}
		if (o->env_path)
			strcat(env, o->env_path);
	}
	struct finder f = { .c = c, .o = o, .want = want, .out = out, .err = err, .errlen = errlen };
	char *sys = path_file(o, arch);
	char buf[PATH_MAX];
	struct qb_search s = {
		.env_path = env, .sys_path = sys ? sys : "", .secure = c->secure,
		.needed_by = &c->libs[parent], .link = chain_link, .try_file = try_file,
		.ctx = &f, .buf = buf, .bufsz = sizeof buf,
	};
	r = qb_search_library(&s, name) ? f.result : f.result < 0 ? -1 : 0;
	free(env);
	free(sys);
	/* not found: err says where it was looked for */
	if (!r)
		snprintf(err, errlen, "%s", f.tried);
	if (r || c->musl)
		return r;
	/* Not a musl object: also the multiarch directories of Debian-style
	 * glibc systems, where its own loader would look. */
	static const char *const extra64[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
	};
	static const char *const extra32[] = {
		"/lib/i386-linux-gnu", "/usr/lib/i386-linux-gnu", "/usr/i686-linux-gnu/lib", "/lib32", "/usr/lib32",
	};
	const char *const *extra = want->is64 ? extra64 : extra32;
	size_t nextra = want->is64 ? sizeof extra64 / sizeof *extra64 : sizeof extra32 / sizeof *extra32;
	for (size_t i = 0; i < nextra; i++) {
		char d[PATH_MAX];
		if ((size_t)snprintf(d, sizeof d, "%s/%s", extra[i], name) >= sizeof d)
			continue;
		rooted(o, d, p, sizeof p);
		if ((r = take_file(c, want, p, out, 0, err, errlen)))
			return r;
	}
	snprintf(err, errlen, "%s", f.tried);
	return 0;
}

/* The loader's "already loaded" rule (ldso/search.c qb_find_loaded): a
 * DT_NEEDED name is the object loaded by that name, with that SONAME
 * (names without '/'), or opened under that path; the first such object.
 * -2: out of memory. */
static int loaded_by_name(struct closure *c, const char *name)
{
	const struct closure_ix *x = ix_sync(c);
	if (!x)
		return -2;
	uint32_t a, b;
	int ha = strmap_get(&x->names, name, &a);
	int hb = !strchr(name, '/') && strmap_get(&x->sonames, name, &b);
	if (ha && hb)
		return (int)(a < b ? a : b);
	return ha ? (int)a : hb ? (int)b : -1;
}

int closure_grow(struct closure *c, char *err, size_t errlen)
{
	if (c->n < c->cap)
		return 0;
	struct lib *nl = realloc(c->libs, 2 * c->cap * sizeof *nl);
	if (!nl) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->libs = nl;
	c->cap *= 2;
	return 0;
}

static int *dep_array(const struct elf *e)
{
	int *d = malloc((e->ndyn ? e->ndyn : 1) * sizeof *d);
	for (unsigned k = 0; d && k < e->ndyn; k++)
		d[k] = -1;
	return d;
}

int closure_start(struct elf *obj, struct closure *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->cap = 16;
	c->libs = calloc(c->cap, sizeof *c->libs);
	if (!c->libs || !(c->libs[0].dep = dep_array(obj))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->n = 1;
	c->libs[0].e = *obj;
	c->libs[0].path = (char *)obj->path;
	c->libs[0].needed_by = -1;
	c->libs[0].dynidx = -1;
	struct stat st;
	if (stat(obj->path, &st) == 0) {
		c->libs[0].dev = st.st_dev;
		c->libs[0].ino = st.st_ino;
		/* A set-id program runs in secure mode. */
		c->secure = (st.st_mode & (S_ISUID | S_ISGID)) != 0;
	}
	c->musl = is_musl_object(obj);
	return 0;
}

int closure_add(struct closure *c, struct cobj *obj, const char *path, int needed_by, char *err, size_t errlen)
{
	struct stat st;
	if (closure_grow(c, err, errlen) < 0) {
		objcache_put(obj);
		return -1;
	}
	struct lib *l = &c->libs[c->n];
	memset(l, 0, sizeof *l);
	l->path = strdup(path);
	l->dep = dep_array(&obj->e);
	if (!l->path || !l->dep) {
		free(l->path);
		free(l->dep);
		objcache_put(obj);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	l->obj = obj;
	l->e = obj->e;
	l->e.path = l->path;
	l->needed_by = needed_by;
	l->dynidx = -1;
	if (stat(path, &st) == 0) {
		l->dev = st.st_dev;
		l->ino = st.st_ino;
	}
	return (int)c->n++;
}

int closure_expand(struct closure *c, const struct search_opts *o, unsigned from, char *err, size_t errlen)
{
	for (unsigned q = from; q < c->n; q++) {
		const struct elf *e = &c->libs[q].e;
		for (unsigned k = 0; k < e->ndyn; k++) {
			if (e->dyn[k].d_tag != DT_NEEDED)
				continue;
			const char *name = elf_dynstr(e, e->dyn[k].d_un.d_val);
			if (!name) {
				snprintf(err, errlen, "bad DT_NEEDED string offset in %s", c->libs[q].path);
				return -1;
			}
			if (closure_grow(c, err, errlen) < 0)
				return -1;
			e = &c->libs[q].e;
			struct lib *l = &c->libs[c->n];
			memset(l, 0, sizeof *l);
			char why[PATH_MAX + 128] = "";
			int r = -1;
			/* musl's reserved names are the loader itself, before any
			 * other rule (find_lib) */
			if (!(c->musl && !strchr(name, '/') && (qb_search_reserved(name) || !strncmp(name, "ld-musl-", 8)))) {
				int i = loaded_by_name(c, name);
				if (i == -2) {
					snprintf(err, errlen, "out of memory");
					return -1;
				}
				if (i >= 0)
					r = 2 + i;
			}
			if (r < 0)
				r = find_lib(c, o, q, name, l, why, sizeof why);
			if (r < 0) {
				snprintf(err, errlen, "library %s (needed by %s): %s", name, c->libs[q].path, why);
				return -1;
			}
			if (!r) {
				const char *in = *why ? why : "no directory";
				if (q == 0)
					snprintf(err, errlen, "needed library %s not found in %s (-L DIR searches DIR first)",
						 name, in);
				else
					snprintf(err, errlen, "library %s (needed by %s) not found in %s "
						 "(-L DIR searches DIR first)", name, c->libs[q].path, in);
				return -1;
			}
			if (r == 1) {
				l->needed_by = (int)q;
				l->dynidx = q == 0 ? (int)k : -1;
				l->shortname = strdup(name);
				l->dep = dep_array(&l->e);
				if (!l->shortname || !l->dep) {
					snprintf(err, errlen, "out of memory");
					objcache_put(l->obj);
					free(l->path);
					free(l->shortname);
					free(l->dep);
					return -1;
				}
				c->libs[q].dep[k] = (int)c->n;
				c->n++;
			} else {
				c->libs[q].dep[k] = r - 2;
				if (q == 0 && c->libs[r - 2].dynidx < 0 && r - 2 != 0)
					c->libs[r - 2].dynidx = (int)k;
			}
		}
	}
	return 0;
}

/* Does the search read the same from b as from a: class, machine, type,
 * PT_INTERP, and each DT_NEEDED, DT_SONAME, DT_RPATH and DT_RUNPATH at
 * the same place in .dynamic (dep arrays are indexed by that place)? */
static int search_tag(int64_t t)
{
	return t == DT_NEEDED || t == DT_SONAME || t == DT_RPATH || t == DT_RUNPATH;
}

static int same_search_inputs(const struct elf *a, const struct elf *b)
{
	if (a->is64 != b->is64 || a->eh.e_machine != b->eh.e_machine || a->eh.e_type != b->eh.e_type ||
	    !a->interp != !b->interp || (a->interp && strcmp(a->interp, b->interp)))
		return 0;
	unsigned n = a->ndyn > b->ndyn ? a->ndyn : b->ndyn;
	for (unsigned k = 0; k < n; k++) {
		int ta = k < a->ndyn && search_tag(a->dyn[k].d_tag);
		int tb = k < b->ndyn && search_tag(b->dyn[k].d_tag);
		if (ta != tb)
			return 0;
		if (!ta)
			continue;
		if (a->dyn[k].d_tag != b->dyn[k].d_tag)
			return 0;
		const char *sa = elf_dynstr(a, a->dyn[k].d_un.d_val), *sb = elf_dynstr(b, b->dyn[k].d_un.d_val);
		if (!sa != !sb || (sa && strcmp(sa, sb)))
			return 0;
	}
	return 1;
}

/* dep sized for e (entries past the old size are not DT_NEEDED: -1). */
static int *dep_copy(const int *dep, unsigned n, const struct elf *e)
{
	int *d = dep_array(e);
	for (unsigned k = 0; d && dep && k < n && k < e->ndyn; k++)
		d[k] = dep[k];
	return d;
}

int closure_refresh(struct closure *c)
{
	for (unsigned k = 1; k < c->n; k++) {
		struct lib *l = &c->libs[k];
		struct stat st;
		char why[sizeof l->e.err];
		/* still the current version: nothing of this run replaced it
		 * (asking the file system for each library of each file's load
		 * would make the run quadratic again) */
		if (l->obj && l->obj->live)
			continue;
		if (!l->obj || stat(l->path, &st) < 0 || (unsigned long long)st.st_dev != l->dev ||
		    (unsigned long long)st.st_ino != l->ino)
			return 0;
		struct cobj *o = objcache_get(l->path, &st, why, sizeof why);
		if (o == l->obj) {
			objcache_put(o);
			continue;
		}
		if (!o || !same_search_inputs(&l->obj->e, &o->e)) {
			if (o)
				objcache_put(o);
			return 0;
		}
		int *dep = dep_copy(l->dep, l->e.ndyn, &o->e);
		if (!dep) {
			objcache_put(o);
			return 0;
		}
		free(l->dep);
		l->dep = dep;
		objcache_put(l->obj);
		l->obj = o;
		l->e = o->e;
		l->e.path = l->path;
	}
	return 1;
}

int closure_copy(struct closure *dst, const struct closure *src, struct elf *obj, char *err, size_t errlen)
{
	memset(dst, 0, sizeof *dst);
	for (unsigned k = 1; k < src->n; k++)
		if (!src->libs[k].obj) {
			snprintf(err, errlen, "internal error: a library read outside the run's objects");
			return -1;
		}
	dst->cap = src->n > 16 ? src->n : 16;
	dst->libs = calloc(dst->cap, sizeof *dst->libs);
	if (!dst->libs)
		goto oom;
	dst->musl = src->musl;
	dst->secure = src->secure;
	for (unsigned k = 0; k < src->n; k++) {
		const struct lib *s = &src->libs[k];
		struct lib *l = &dst->libs[k];
		*l = *s;
		l->path = NULL;
		l->shortname = NULL;
		l->obj = NULL;
		l->dep = NULL;
		if (!k) {
			l->e = *obj;
			l->path = (char *)obj->path;
			l->obj = s->obj; /* the caller's, as src's */
		} else {
			l->path = strdup(s->path);
			l->shortname = s->shortname ? strdup(s->shortname) : NULL;
			l->obj = objcache_ref(s->obj);
			l->e.path = l->path;
		}
		dst->n = k + 1;
		if (!(l->dep = dep_copy(s->dep, s->e.ndyn, &l->e)) || !l->path || (s->shortname && !l->shortname))
			goto oom;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void closure_free_libs(struct closure *c)
{
	for (unsigned i = 0; i < c->n; i++) {
		if (i && !c->borrowed) {
			if (c->libs[i].obj)
				objcache_put(c->libs[i].obj);
			else
				elf_free(&c->libs[i].e);
			free(c->libs[i].path);
			free(c->libs[i].shortname);
		}
		free(c->libs[i].dep);
	}
	free(c->libs);
	ix_free(c);
	memset(c, 0, sizeof *c);
}

uint64_t lib_symtab_id(const struct lib *l)
{
	return l->obj ? cobj_symtab_id(l->obj) : elf_symtab_id(&l->e);
}
