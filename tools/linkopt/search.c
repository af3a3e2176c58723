#include "search.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *arch_name(const struct elf *e) { return e->is64 ? "x86_64" : "i386"; }

/* musl answers these names with the loader itself (which is libc). */
static int musl_reserved(const char *n)
{
	static const char *const names[] = { "libc", "libdl", "libpthread", "libm", "librt", "libutil", "libxnet" };
	if (!strncmp(n, "libc.musl-", 10) || !strncmp(n, "ld-musl-", 8))
		return 1;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		size_t l = strlen(names[i]);
		if (!strncmp(n, names[i], l) && n[l] == '.')
			return 1;
	}
	return 0;
}

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

static void rooted(const struct search_opts *o, const char *p, char *out, size_t len)
{
	if (o->root && p[0] == '/')
		snprintf(out, len, "%s%s", o->root, p);
	else
		snprintf(out, len, "%s", p);
}

/* Try one candidate file: it must exist and be an ELF object of the same
 * class and machine; others are skipped, as the loader skips them. */
static int try_path(struct closure *c, const struct elf *want, const char *path, struct lib *out)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	for (unsigned i = 0; i < c->n; i++)
		if (c->libs[i].dev == (unsigned long long)st.st_dev && c->libs[i].ino == (unsigned long long)st.st_ino)
			return 2 + (int)i; /* already loaded */
	struct elf e;
	if (elf_load_file(&e, path) < 0 || e.is64 != want->is64 || e.eh.e_machine != want->eh.e_machine) {
		elf_free(&e);
		return 0;
	}
	out->path = strdup(path);
	out->e = e;
	out->e.path = out->path;
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	return 1;
}

static int try_dir(struct closure *c, const struct elf *want, const char *dir, const char *name, struct lib *out)
{
	char p[PATH_MAX];
	if (!*dir)
		dir = ".";
	if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, name) >= sizeof p)
		return 0;
	return try_path(c, want, p, out);
}

/* Search a ':'-separated list, expanding $ORIGIN to origin_dir. */
static int try_list(struct closure *c, const struct search_opts *o, const struct elf *want,
		    const char *list, const char *origin_dir, const char *name, struct lib *out)
{
	char dir[PATH_MAX], exp[PATH_MAX];
	while (list && *list) {
		size_t l = strcspn(list, ":\n");
		if (l && l < sizeof dir) {
			memcpy(dir, list, l);
			dir[l] = 0;
			char *d = dir, tmp[PATH_MAX];
			const char *tok = NULL;
			if (!strncmp(d, "$ORIGIN", 7))
				tok = d + 7;
			else if (!strncmp(d, "${ORIGIN}", 9))
				tok = d + 9;
			if (tok) {
				snprintf(tmp, sizeof tmp, "%s%s", origin_dir, tok);
				snprintf(exp, sizeof exp, "%s", tmp);
			} else {
				rooted(o, d, exp, sizeof exp);
			}
			int r = try_dir(c, want, exp, name, out);
			if (r)
				return r;
		}
		list += l;
		if (*list)
			list++;
	}
	return 0;
}

static char *read_small_file(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *buf = calloc(1, 8192);
	if (buf)
		fread(buf, 1, 8191, f);
	fclose(f);
	return buf;
}

static void dirname_of(const char *path, char *out, size_t len)
{
	const char *s = strrchr(path, '/');
	if (!s)
		snprintf(out, len, ".");
	else if (s == path)
		snprintf(out, len, "/");
	else
		snprintf(out, len, "%.*s", (int)(s - path), path);
}

static int find_lib(struct closure *c, const struct search_opts *o, unsigned parent, const char *name, struct lib *out)
{
	const struct elf *want = c->libs[0].e.buf ? &c->libs[0].e : NULL;
	char p[PATH_MAX];
	const char *arch = arch_name(want);
	int r;

	if (strchr(name, '/')) {
		rooted(o, name, p, sizeof p);
		return try_path(c, want, p, out);
	}
	if (c->musl && musl_reserved(name)) {
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
				if ((r = try_path(c, want, p, out)))
					return r;
			}
		return 0;
	}
	for (unsigned i = 0; i < o->nldirs; i++)
		if ((r = try_dir(c, want, o->ldirs[i], name, out)))
			return r;
	/* RPATH/RUNPATH of the needing object, then of whatever needed it */
	for (int q = (int)parent; q >= 0; q = c->libs[q].needed_by) {
		const struct elf *e = &c->libs[q].e;
		int f;
		uint64_t v = elf_dyn_get(e, DT_RUNPATH, &f);
		if (!f)
			v = elf_dyn_get(e, DT_RPATH, &f);
		if (f) {
			char origin[PATH_MAX];
			dirname_of(c->libs[q].path, origin, sizeof origin);
			if ((r = try_list(c, o, want, elf_dynstr(e, v), origin, name, out)))
				return r;
		}
	}
	snprintf(p, sizeof p, "%s/etc/ld-quickbind-%s.path", o->root ? o->root : "", arch);
	char *pf = read_small_file(p);
	if (!pf) {
		snprintf(p, sizeof p, "%s/etc/ld-musl-%s.path", o->root ? o->root : "", arch);
		pf = read_small_file(p);
	}
	r = try_list(c, o, want, pf ? pf : "/lib:/usr/local/lib:/usr/lib", "", name, out);
	free(pf);
	if (r)
		return r;
	/* the multiarch directories of Debian-style glibc and musl systems */
	char extra[1024];
	if (want->is64)
		snprintf(extra, sizeof extra, "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
			 "/lib/x86_64-linux-musl:/usr/lib/x86_64-linux-musl");
	else
		snprintf(extra, sizeof extra, "/lib/i386-linux-gnu:/usr/lib/i386-linux-gnu:/usr/i686-linux-gnu/lib:"
			 "/lib32:/usr/lib32:/lib/i386-linux-musl:/usr/lib/i386-linux-musl");
	return try_list(c, o, want, extra, "", name, out);
}

int closure_build(struct elf *obj, const struct search_opts *o, struct closure *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->cap = 16;
	c->libs = calloc(c->cap, sizeof *c->libs);
	if (!c->libs) {
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
	}
	c->musl = is_musl_object(obj);

	for (unsigned q = 0; q < c->n; q++) {
		const struct elf *e = &c->libs[q].e;
		for (unsigned k = 0; k < e->ndyn; k++) {
			if (e->dyn[k].d_tag != DT_NEEDED)
				continue;
			const char *name = elf_dynstr(e, e->dyn[k].d_un.d_val);
			if (c->n == c->cap) {
				struct lib *nl = realloc(c->libs, 2 * c->cap * sizeof *nl);
				if (!nl) {
					snprintf(err, errlen, "out of memory");
					return -1;
				}
				c->libs = nl;
				c->cap *= 2;
				e = &c->libs[q].e;
			}
			struct lib *l = &c->libs[c->n];
			memset(l, 0, sizeof *l);
			int r = find_lib(c, o, q, name, l);
			if (!r) {
				if (q == 0)
					snprintf(err, errlen, "needed library %s not found", name);
				else
					snprintf(err, errlen, "library %s (needed by %s) not found", name, c->libs[q].path);
				return -1;
			}
			if (r == 1) {
				l->needed_by = (int)q;
				l->dynidx = q == 0 ? (int)k : -1;
				c->n++;
			} else if (q == 0 && c->libs[r - 2].dynidx < 0 && r - 2 != 0) {
				c->libs[r - 2].dynidx = (int)k;
			}
		}
	}
	return 0;
}

void closure_free(struct closure *c)
{
	for (unsigned i = 1; i < c->n; i++) {
		elf_free(&c->libs[i].e);
		free(c->libs[i].path);
	}
	free(c->libs);
	memset(c, 0, sizeof *c);
}
