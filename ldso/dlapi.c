/* Symbol and address queries over the loaded objects: dlsym (through
 * musl's __dlsym), dladdr, dl_iterate_phdr, dlinfo. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "ext/ext.h"

/* glibc's request numbers; musl's header only names RTLD_DI_LINKMAP. */
#ifndef RTLD_DI_ORIGIN
#define RTLD_DI_ORIGIN 6
#endif
#ifndef RTLD_DI_TLS_MODID
#define RTLD_DI_TLS_MODID 9
#define RTLD_DI_TLS_DATA 10
#endif

hidden struct dso *qb_valid_handle(void *h)
{
	for (struct dso *p = qb.head; p; p = p->next)
		if (p == h)
			return p;
	return 0;
}

int __dl_invalid_handle(void *h)
{
	if (qb_valid_handle(h))
		return 0;
	__dl_seterr("Invalid library handle %p", h);
	return 1;
}

/* The object whose image contains addr. */
hidden struct dso *qb_dso_of_addr(const void *addr)
{
	for (struct dso *p = qb.head; p; p = p->next)
		if ((size_t)addr >= (size_t)p->base && qb_in_segment(p, (size_t)addr - (size_t)p->base, 1, 0))
			return p;
	return 0;
}

static void *symbol_address(struct symdef d)
{
	size_t v = (size_t)d.dso->base + d.sym->st_value;
	if (ST_TYPE(d.sym->st_info) == STT_GNU_IFUNC)
		return qb_in_code(d.dso, d.sym->st_value) ? (void *)((size_t (*)(void))v)() : 0;
	if (ST_TYPE(d.sym->st_info) == STT_TLS)
		return (unsigned char *)qb_tls_block(d.dso) + d.sym->st_value;
	return (void *)v;
}

/* RTLD_NEXT: the objects after the caller in its own scope. */
static struct symdef lookup_next(struct dso *self, struct qb_symreq *r)
{
	struct symdef d = { 0, 0 };
	if (!self)
		return d;
	struct dso *root = self->reloc_root;
	if (!self->global && root && root->scope) {
		size_t i = 0;
		while (i < root->nscope && root->scope[i] != self)
			i++;
		return i < root->nscope ?
			qb_lookup_scope(root->scope + i + 1, root->nscope - i - 1, r) : d;
	}
	return self->gnext ? qb_ext_lookup()(self->gnext, r, 0, 0) : d;
}

hidden void *qb_dlsym(void *h, const char *name, void *ra, const struct qb_verreq *ver)
{
	struct qb_symreq r;
	struct symdef d = { 0, 0 };
	qb_symreq_init(&r, name, ver);
	qb_lock();
	if (h == RTLD_DEFAULT || h == qb.main) {
		d = qb_lookup(&r, 0, 0);
	} else if (h == RTLD_NEXT) {
		d = lookup_next(qb_dso_of_addr(ra), &r);
	} else if (qb_valid_handle(h)) {
		struct dso *p = h;
		qb_build_scope(p);
		d = qb_lookup_scope(p->scope, p->nscope, &r);
	} else {
		qb_unlock();
		__dl_seterr("Invalid library handle %p", h);
		return 0;
	}
	/* A definition found through the global scope keeps its object
	 * loaded, as glibc records a dependency of the caller on it. */
	if (d.sym && (h == RTLD_DEFAULT || h == qb.main || h == RTLD_NEXT))
		qb_ext_pin(qb_dso_of_addr(ra), d.dso);
	void *addr = d.sym ? symbol_address(d) : 0;
	qb_unlock();
	if (!d.sym)
		__dl_seterr("Symbol not found: %s", name);
	return addr;
}

void *__dlsym(void *restrict h, const char *restrict name, void *restrict ra)
{
	return qb_dlsym(h, name, ra, 0);
}

QB_PUBLIC int dladdr(const void *addr, Dl_info *info)
{
	qb_lock();
	struct dso *p = qb_dso_of_addr(addr);
	if (!p) {
		qb_unlock();
		return 0;
	}
	size_t off = (size_t)addr - (size_t)p->base;
	Sym *bs = 0;
	for (size_t i = 1; i < p->nsyms; i++) {
		Sym *s = p->syms + i;
		if (!s->st_shndx || !s->st_value || ST_TYPE(s->st_info) == STT_TLS ||
		    ST_BIND(s->st_info) == STB_LOCAL || s->st_name >= p->dyn.strsz)
			continue;
		if (s->st_value <= off && (!bs || s->st_value > bs->st_value))
			bs = s;
	}
	info->dli_fname = p->name;
	info->dli_fbase = p->map ? (void *)p->map : (void *)p->base;
	if (!p->map && p->is_main)
		for (size_t i = 0; i < p->phnum; i++)
			if (p->phdr[i].p_type == PT_LOAD) {
				info->dli_fbase = p->base + (p->phdr[i].p_vaddr & -__libc.page_size);
				break;
			}
	/* The nearest symbol below addr names it only if its extent covers
	 * addr (a size-0 symbol only its own address), as glibc does:
	 * local code after an exported function is not that function. */
	if (bs && off - bs->st_value >= (bs->st_size ? bs->st_size : 1))
		bs = 0;
	info->dli_sname = bs ? p->strings + bs->st_name : 0;
	info->dli_saddr = bs ? p->base + bs->st_value : 0;
	qb_unlock();
	return 1;
}

/* As musl does, the lock is held only to step from one object to the
 * next, so that a callback may wait for a thread in dlopen or dlsym: an
 * object in the list stays there (a dlopen adds and undoes objects only
 * under the lock), unless dlclose unloads (LD_DLCLOSE=unload), when the
 * lock is held through the callbacks, as glibc does. */
QB_PUBLIC int dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *data)
{
	int r = 0;
	qb_lock();
	for (struct dso *p = qb.head; p && !r; p = p->next) {
		struct dl_phdr_info info = { .dlpi_addr = (ElfW(Addr))p->base, .dlpi_name = p->name,
			.dlpi_phdr = p->phdr, .dlpi_phnum = p->phnum, .dlpi_adds = qb.adds,
			.dlpi_subs = qb.subs, .dlpi_tls_modid = p->tls_id, .dlpi_tls_data = qb_tls_block(p) };
		if (!qb.unload)
			qb_unlock();
		r = cb(&info, sizeof info, data);
		if (!qb.unload)
			qb_lock();
	}
	qb_unlock();
	return r;
}

QB_PUBLIC int dlinfo(void *restrict h, int req, void *restrict res)
{
	struct dso *p = h;
	if (__dl_invalid_handle(h))
		return -1;
	switch (req) {
	case RTLD_DI_LINKMAP:
		*(struct link_map **)res = (struct link_map *)p;
		return 0;
	case RTLD_DI_ORIGIN: {
		/* The object's directory, made absolute as glibc reports it
		 * (the caller provides PATH_MAX bytes). */
		char dir[PATH_MAX];
		const char *slash = strrchr(p->name, '/');
		size_t n = !slash ? 0 : slash == p->name ? 1 : (size_t)(slash - p->name);
		if (n >= sizeof dir)
			n = 0;
		memcpy(dir, n ? p->name : ".", n ? n : 2);
		dir[n ? n : 1] = 0;
		if (!realpath(dir, res))
			strcpy(res, dir);
		return 0;
	}
	case RTLD_DI_TLS_MODID:
		*(size_t *)res = p->tls_id;
		return 0;
	case RTLD_DI_TLS_DATA:
		*(void **)res = qb_tls_block(p);
		return 0;
	default:
		__dl_seterr("Unsupported request %d", req);
		return -1;
	}
}
