/* A program's launch record (docs/FORMAT.md 2.6): its start-up load in
 * global-scope order, the C library as the loader build that stands for
 * it, each object by identity, and for every symbol an object's
 * relocations name the standard lookup's answer in that load (definer,
 * value), so that the loader binds start-up from one array once it has
 * checked the load is this one. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfhash.h"
#include "launch.h"
#include "bind.h"
#include "defscope.h"
#include "objcache.h"
#include "tables.h"

const char *launch_loader_opt;

/* A quickbind loader names the musl it is built on in its bytes. */
static int is_quickbind(const struct elf *e)
{
	static const char mark[] = "quickbind-musl-base=";
	return memmem(e->buf, e->size, mark, sizeof mark - 1) != NULL;
}

/* The identity of a loader build: its GNU build-id note. 0: none. */
static uint64_t build_identity(const struct elf *e)
{
	for (unsigned i = 0; i < e->phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];
		if (ph->p_type != PT_NOTE || ph->p_offset > e->size || ph->p_filesz > e->size - ph->p_offset)
			continue;
		const uint8_t *n = e->buf + ph->p_offset, *end = n + ph->p_filesz;
		while (end - n >= 12) {
			uint32_t nsz = rd32(n), dsz = rd32(n + 4), type = rd32(n + 8);
			uint64_t name = (nsz + 3ull) & ~3ull, desc = (dsz + 3ull) & ~3ull;
			if (name + desc > (uint64_t)(end - n) - 12)
				break;
			if (type == NT_GNU_BUILD_ID && nsz == 4 && !memcmp(n + 12, "GNU", 4))
				return qb_build_id(n + 12 + name, dsz);
			n += 12 + name + desc;
		}
	}
	return 0;
}

/* The loader the program will run under, as a cache object: --loader;
 * else its PT_INTERP (in the root) when that is a quickbind loader;
 * outside a root, the loader built or installed beside linkopt. NULL:
 * none known, no record. */
static struct cobj *the_loader(const struct elf *prog, const struct search_opts *so)
{
	char path[PATH_MAX + 32], self[PATH_MAX], err[512];
	const char *arch = prog->eh.e_machine == EM_X86_64 ? "x86_64" : "i386";
	struct stat st;
	struct cobj *o;
	if (launch_loader_opt)
		snprintf(path, sizeof path, "%s", launch_loader_opt);
	else if (prog->interp && prog->interp[0] == '/')
		rooted(so, prog->interp, path, sizeof path);
	else
		path[0] = 0;
	if (path[0] && !stat(path, &st) && (o = objcache_get(path, &st, err, sizeof err))) {
		if (launch_loader_opt || is_quickbind(&o->e))
			return o;
		objcache_put(o);
	}
	ssize_t n = so->root ? -1 : readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	*slash = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	if ((size_t)snprintf(path, sizeof path, "%s/lib/ld-quickbind-%s.so.1", self, arch) >= sizeof path ||
	    stat(path, &st) || !(o = objcache_get(path, &st, err, sizeof err)))
		return NULL;
	if (is_quickbind(&o->e))
		return o;
	objcache_put(o);
	return NULL;
}

/* Where the standard lookup of the load finds name (need): 1 + the
 * object's index with its symbol in *sym, or 0. The program's
 * definitions come first, then the libraries in load order. */
static uint32_t pick(const struct closure *c, struct defscope *prog, struct defscope *libs,
	const char *name, const struct qb_verreq *need, uint32_t *sym, int *oom)
{
	const struct defref *d;
	unsigned n = find_defs(prog, name, &d, oom);
	for (unsigned j = 0; j < n; j++)
		if (lookup_accepts(&c->libs[0].e, d[j].sym, need)) {
			*sym = d[j].sym;
			return 1;
		}
	n = find_defs(libs, name, &d, oom);
	for (unsigned j = 0; j < n; j++)
		if (lookup_accepts(&c->libs[d[j].lib].e, d[j].sym, need)) {
			*sym = d[j].sym;
			return d[j].lib + 1;
		}
	return 0;
}

/* The answer to symbol i of object k: a plain definition with its value,
 * nothing for a weak reference the fallback cannot take, else ask. */
static struct qb_launch_ans answer(const struct closure *c, struct defscope *prog, struct defscope *libs,
	unsigned k, uint32_t i, int *oom)
{
	const struct elf *e = &c->libs[k].e;
	struct qb_launch_ans ask = { QB_LAUNCH_ASK, 0 };
	Elf64_Sym s, ds;
	struct qb_verreq req;
	const struct qb_verreq *need;
	uint32_t sym;
	if (!named_ref(e, i, &s, &req, &need))
		return ask;
	const char *name = elf_sym_name(e, i);
	uint32_t d = pick(c, prog, libs, name, need, &sym, oom);
	if (!d) {
		int weak = s.st_shndx == SHN_UNDEF && ELF64_ST_BIND(s.st_info) == STB_WEAK;
		return weak && !lfs64_form(name) ? (struct qb_launch_ans){ QB_LAUNCH_NONE, 0 } : ask;
	}
	elf_sym_get(&c->libs[d - 1].e, sym, &ds);
	/* types 0-3: no type, object, function, section; the engine binds
	 * no other without the lookup */
	if ((ds.st_info & 0xc) || ds.st_value > 0xffffffffu)
		return ask;
	return (struct qb_launch_ans){ d, (uint32_t)ds.st_value };
}

/* The filter of the names the record answers (*nwords words, 16 bits
 * a name): a preloaded library that defines none of them leaves every
 * answer as it is, so the loader keeps the record beside it. malloc'd. */
static uint32_t *names_filter(const struct closure *c, const struct qb_launch_obj *obj,
	const struct qb_launch_ans *ans, size_t nans, uint32_t *nwords)
{
	size_t named = 0;
	for (size_t i = 0; i < nans; i++)
		named += ans[i].def != QB_LAUNCH_ASK;
	uint32_t w = 1;
	while (w < (1u << 26) && 32ull * w < 16ull * named)
		w <<= 1;
	uint32_t *f = calloc(w, sizeof *f);
	if (!f)
		return NULL;
	for (unsigned k = 0; k < c->n; k++)
		for (uint32_t i = 0; i < obj[k].count; i++)
			if (ans[obj[k].ans_off + i].def != QB_LAUNCH_ASK) {
				uint32_t h = qb_gnu_hash(elf_sym_name(&c->libs[k].e, i));
				for (int j = 0; j < 2; j++) {
					uint32_t bit = qb_names_bit(h, j, w);
					f[bit / 32] |= 1u << (bit % 32);
				}
			}
	*nwords = w;
	return f;
}

/* The objects' identities, each final now (libraries by their tables,
 * the loader by its build); 0 when one has none. */
static int identities(const struct closure *c, uint64_t ldso_id, uint64_t *id)
{
	id[0] = 0;
	for (unsigned k = 1; k < c->n; k++) {
		const struct elf *e = &c->libs[k].e;
		const uint8_t *tab = e->qbt_off ? e->buf + e->qbt_off : NULL;
		if (loader_itself(&c->libs[k]))
			id[k] = ldso_id;
		else if (tab && qb_table_valid(tab, e->qbt_size, e->nsyms))
			id[k] = qb_table_self_id(tab);
		else
			id[k] = 0;
		if (!id[k])
			return 0;
	}
	return 1;
}

int qbt_add_launch(uint8_t **tab, size_t *len, const struct closure *c0, const struct search_opts *so)
{
	struct cobj *ldso = the_loader(&c0->libs[0].e, so);
	uint64_t ldso_id = ldso ? build_identity(&ldso->e) : 0;
	if (!ldso_id || c0->n > 0xffff) {
		if (ldso)
			objcache_put(ldso);
		return 0;
	}
	/* the load as the loader builds it: the C library is the loader */
	struct closure c = *c0;
	struct lib *libs = malloc(c.n * sizeof *libs);
	uint64_t *id = malloc(c.n * sizeof *id);
	struct qb_launch_obj *obj = calloc(c.n, sizeof *obj);
	struct qb_launch_ans *ans = NULL;
	uint32_t *names = NULL, nub = 0;
	size_t nans = 0, cap = 0;
	struct defscope prog = { 0 }, all = { 0 };
	int oom = !libs || !id || !obj, rc = 0;
	if (oom)
		goto out;
	memcpy(libs, c0->libs, c.n * sizeof *libs);
	for (unsigned k = 1; k < c.n; k++)
		if (loader_itself(&libs[k])) {
			libs[k].e = ldso->e;
			libs[k].obj = ldso;
		}
	c.libs = libs;
	if (!identities(&c, ldso_id, id))
		goto out;
	oom = defscope_init(&prog, &c, 0, 1) < 0 || defscope_init(&all, &c, 1, c.n) < 0;
	for (unsigned k = 0; k < c.n && !oom; k++) {
		const struct elf *e = &c.libs[k].e;
		obj[k].id[0] = (uint32_t)id[k];
		obj[k].id[1] = (uint32_t)(id[k] >> 32);
		/* the loader's own references are its business */
		if (k && loader_itself(&c0->libs[k]))
			continue;
		unsigned char *ref = referenced(e);
		uint32_t hi = 0;
		oom = !ref;
		for (uint32_t i = 1; ref && i < e->nsyms; i++)
			if (ref[i])
				hi = i + 1;
		if (hi && nans + hi > cap) {
			size_t nc = cap ? 2 * cap : 4096;
			while (nc < nans + hi)
				nc *= 2;
			struct qb_launch_ans *m = realloc(ans, nc * sizeof *m);
			oom |= !m;
			if (m) {
				ans = m;
				cap = nc;
			}
		}
		for (uint32_t i = 0; i < hi && !oom; i++)
			ans[nans + i] = ref[i] ? answer(&c, &prog, &all, k, i, &oom) :
						 (struct qb_launch_ans){ QB_LAUNCH_ASK, 0 };
		obj[k].count = hi;
		obj[k].ans_off = (uint32_t)nans;  /* an index until placed */
		nans += hi;
		free(ref);
	}
	if (oom || nans > 0x0fffffff || !(names = names_filter(&c, obj, ans, nans, &nub))) {
		oom = 1;
		goto out;
	}
	size_t at = (*len + 3) & ~(size_t)3, aat = at + c.n * sizeof *obj, uat = aat + nans * sizeof *ans;
	uint8_t *b = realloc(*tab, uat + nub * 4);
	if (!b || uat + nub * 4 > 0xffffffffu) {
		oom = !b;
		if (b)
			*tab = b;
		goto out;
	}
	memset(b + *len, 0, at - *len);
	for (unsigned k = 0; k < c.n; k++) {
		uint8_t *o = b + at + k * sizeof *obj;
		wr32(o, obj[k].id[0]);
		wr32(o + 4, obj[k].id[1]);
		wr32(o + 8, obj[k].count);
		wr32(o + 12, (uint32_t)(aat + obj[k].ans_off * sizeof *ans));
	}
	for (size_t i = 0; i < nans; i++) {
		wr32(b + aat + 8 * i, ans[i].def);
		wr32(b + aat + 8 * i + 4, ans[i].value);
	}
	for (size_t i = 0; i < nub; i++)
		wr32(b + uat + 4 * i, names[i]);
	uint32_t f = rd32(b + offsetof(struct qb_table_hdr, flags));
	wr32(b + offsetof(struct qb_table_hdr, flags), f | QB_TF_LAUNCH);
	wr32(b + offsetof(struct qb_table_hdr, launch_off), (uint32_t)at);
	wr32(b + offsetof(struct qb_table_hdr, nlaunch), c.n);
	wr32(b + offsetof(struct qb_table_hdr, names_off), (uint32_t)uat);
	wr32(b + offsetof(struct qb_table_hdr, nnames), nub);
	*tab = b;
	*len = uat + nub * 4;
out:
	defscope_free(&prog);
	defscope_free(&all);
	free(ans);
	free(names);
	free(obj);
	free(id);
	free(libs);
	objcache_put(ldso);
	return oom ? -1 : rc;
}

int launch_check(const struct elf *prog, const struct closure *c, const struct search_opts *so, const char *path)
{
	const uint8_t *tab = prog->qbt_off ? prog->buf + prog->qbt_off : NULL;
	uint32_t n, nw;
	const uint32_t *names;
	const struct qb_launch_obj *o = tab && qb_table_valid(tab, prog->qbt_size, prog->nsyms) ?
		qb_table_launch(tab, &n, &names, &nw) : NULL;
	if (!o)
		return 0;
	if (n != c->n) {
		printf("%s: stale: the launch record holds %u objects, the start-up load now %u: it is declined\n",
		       path, n, c->n);
		return 1;
	}
	struct cobj *ldso = NULL;
	int stale = 0;
	for (unsigned k = 1; k < c->n; k++) {
		uint64_t want = (uint64_t)rd32((const uint8_t *)&o[k].id[1]) << 32 | rd32((const uint8_t *)&o[k].id[0]);
		uint64_t now;
		if (loader_itself(&c->libs[k])) {
			ldso = ldso ? ldso : the_loader(prog, so);
			now = ldso ? build_identity(&ldso->e) : 0;
		} else {
			now = lib_symtab_id(&c->libs[k]);
		}
		if (now != want) {
			printf("%s: stale: %s changed since linkopt ran: the launch record is declined\n", path,
			       loader_itself(&c->libs[k]) ? "the loader" : c->libs[k].path);
			stale = 1;
		}
	}
	if (ldso)
		objcache_put(ldso);
	return stale;
}
