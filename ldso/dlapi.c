/* The dl* entry points musl's libc expects the dynamic linker to supply,
 * over the objects loaded at start-up. */
#include <dlfcn.h>
#include <string.h>
#include "ldso.h"

void __dl_seterr(const char *, ...) hidden;

static struct dso *valid_handle(void *h)
{
	for (struct dso *p = qb.head; p; p = p->next)
		if (p == h)
			return p;
	return 0;
}

int __dl_invalid_handle(void *h)
{
	if (valid_handle(h))
		return 0;
	__dl_seterr("Invalid library handle %p", h);
	return 1;
}

/* The object whose image contains addr. */
hidden struct dso *qb_dso_of_addr(const void *addr)
{
	size_t a = (size_t)addr;
	for (struct dso *p = qb.head; p; p = p->next) {
		for (size_t i = 0; i < p->phnum; i++) {
			const Phdr *ph = &p->phdr[i];
			if (ph->p_type != PT_LOAD)
				continue;
			size_t start = (size_t)p->base + ph->p_vaddr;
			if (a >= start && a - start < ph->p_memsz)
				return p;
		}
	}
	return 0;
}

QB_PUBLIC void *dlopen(const char *file, int mode)
{
	if (!file)
		return qb.main;
	for (struct dso *p = qb.head; p; p = p->next)
		if ((p->shortname && !strcmp(p->shortname, file)) || (p->name && !strcmp(p->name, file)) ||
		    (p->soname && !strcmp(p->soname, file)))
			return p;
	if (mode & RTLD_NOLOAD)
		return 0;
	__dl_seterr("Error loading shared library %s: dynamic loading after start-up is not available", file);
	return 0;
}

static void *symbol_address(struct symdef d)
{
	size_t v = (size_t)d.dso->base + d.sym->st_value;
	if (ST_TYPE(d.sym->st_info) == STT_GNU_IFUNC)
		return (void *)((size_t (*)(void))v)();
	if (ST_TYPE(d.sym->st_info) == STT_TLS) {
		size_t mod[2] = { d.dso->tls_id, d.sym->st_value - QB_DTP_OFFSET };
		return __tls_get_addr(mod);
	}
	return (void *)v;
}

/* Lookup in p and its dependencies, breadth first. */
static struct symdef lookup_deps(struct dso *root, struct qb_symreq *r)
{
	struct symdef d = { 0, 0 };
	size_t cap = qb.ndso, n = 0;
	struct dso **q = __libc_malloc(cap * sizeof *q);
	if (!q)
		return d;
	for (struct dso *p = qb.head; p; p = p->next)
		p->mark = 0;
	q[n++] = root;
	root->mark = 1;
	for (size_t i = 0; i < n && !d.sym; i++) {
		Sym *s = qb_lookup_in(q[i], r);
		if (s) {
			d.sym = s;
			d.dso = q[i];
			break;
		}
		for (size_t k = 0; k < q[i]->ndeps; k++)
			if (!q[i]->deps[k]->mark && n < cap) {
				q[i]->deps[k]->mark = 1;
				q[n++] = q[i]->deps[k];
			}
	}
	__libc_free(q);
	return d;
}

void *__dlsym(void *restrict h, const char *restrict name, void *restrict ra)
{
	struct qb_symreq r;
	struct symdef d = { 0, 0 };
	qb_symreq_init(&r, name, 0);
	if (h == RTLD_DEFAULT || h == qb.main) {
		d = qb_lookup(&r, 0);
	} else if (h == RTLD_NEXT) {
		struct dso *self = qb_dso_of_addr(ra);
		for (struct dso *p = self ? self->next : 0; p; p = p->next) {
			Sym *s = qb_lookup_in(p, &r);
			if (s) {
				d.sym = s;
				d.dso = p;
				break;
			}
		}
	} else {
		if (__dl_invalid_handle(h))
			return 0;
		d = lookup_deps(h, &r);
	}
	if (!d.sym) {
		__dl_seterr("Symbol not found: %s", name);
		return 0;
	}
	return symbol_address(d);
}

QB_PUBLIC int dladdr(const void *addr, Dl_info *info)
{
	struct dso *p = qb_dso_of_addr(addr);
	if (!p)
		return 0;
	size_t off = (size_t)addr - (size_t)p->base, best = 0;
	Sym *bs = 0;
	for (size_t i = 1; i < p->nsyms; i++) {
		Sym *s = p->syms + i;
		if (!s->st_shndx || !s->st_value || ST_TYPE(s->st_info) == STT_TLS ||
		    ST_BIND(s->st_info) == STB_LOCAL || s->st_name >= p->dyn.strsz)
			continue;
		if (s->st_value <= off && s->st_value >= best &&
		    (!bs || s->st_value > bs->st_value || off - s->st_value < s->st_size)) {
			best = s->st_value;
			bs = s;
		}
	}
	info->dli_fname = p->name;
	info->dli_fbase = p->map ? (void *)p->map : (void *)p->base;
	if (!p->map && p->is_main) {
		for (size_t i = 0; i < p->phnum; i++)
			if (p->phdr[i].p_type == PT_LOAD) {
				info->dli_fbase = p->base + (p->phdr[i].p_vaddr & -__libc.page_size);
				break;
			}
	}
	info->dli_sname = bs ? p->strings + bs->st_name : 0;
	info->dli_saddr = bs ? p->base + bs->st_value : 0;
	return 1;
}

QB_PUBLIC int dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *data)
{
	for (struct dso *p = qb.head; p; p = p->next) {
		struct dl_phdr_info info;
		info.dlpi_addr = (ElfW(Addr))p->base;
		info.dlpi_name = p->name;
		info.dlpi_phdr = p->phdr;
		info.dlpi_phnum = p->phnum;
		info.dlpi_adds = qb.ndso;
		info.dlpi_subs = 0;
		info.dlpi_tls_modid = p->tls_id;
		info.dlpi_tls_data = 0;
		if (p->tls_id) {
			size_t mod[2] = { p->tls_id, 0 };
			info.dlpi_tls_data = __tls_get_addr(mod);
		}
		int r = cb(&info, sizeof info, data);
		if (r)
			return r;
	}
	return 0;
}

void __ldso_atfork(int who)
{
	(void)who;
}
