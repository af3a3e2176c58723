/* Filling a struct dso from its mapped dynamic section, and the global
 * list of loaded objects. */
#include <string.h>
#include "ext/ext.h"

hidden struct qb_state qb;

/* The object as the shared ELF reader sees it: its mapped image. */
static const void *image_at(const struct qb_elfview *v, uint64_t addr, uint64_t len)
{
	const struct dso *p = v->ctx;
	int in = addr <= (size_t)-1 && len <= (size_t)-1 && qb_in_image(p, (size_t)addr, (size_t)len);
	return in ? p->base + (size_t)addr : 0;
}

/* The symbol count and the hash tables lookups walk. */
static const char *decode_hashes(struct dso *p, const struct qb_elfview *v)
{
	struct qb_hashinfo h;
	const char *why = qb_hashinfo(v, p->dyn.hash, p->dyn.gnu_hash, &h);
	if (why)
		return why;
	/* the symbol table's check below bounds nsyms to the image */
	if (h.nsyms > (size_t)-1 / sizeof(Sym))
		return "symbol table outside the image";
	p->nsyms = (size_t)h.nsyms;
	if (p->dyn.hash)
		p->hashtab = qb_laddr(p, p->dyn.hash);
	if (p->dyn.gnu_hash) {
		p->gh_nbuckets = h.gnu_nbuckets;
		p->gh_bloom_mask = h.gnu_bloomwords - 1;
		p->gh_shift = h.gnu_shift;
		p->gh_symoffset = h.gnu_symoffset;
		p->gh_bloom = qb_laddr(p, h.gnu_bloom);
		p->gh_buckets = qb_laddr(p, h.gnu_buckets);
		/* indexed by symbol index, which starts at symoffset */
		p->gh_chain = (const uint32_t *)qb_laddr(p, h.gnu_chains) - h.gnu_symoffset;
	}
	return 0;
}

/* Is [lo, hi) inside the pages of one writable loadable segment? */
static int in_writable_pages(const struct dso *p, size_t lo, size_t hi, size_t page)
{
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		size_t start = ph->p_vaddr & -page, end = ph->p_vaddr + ph->p_memsz;
		if (end < ph->p_vaddr)
			continue;
		end = end + page - 1 < end ? -page : (end + page - 1) & -page;
		if (lo >= start && hi <= end)
			return 1;
	}
	return 0;
}

/* The segments the loader acts on besides PT_LOAD and PT_DYNAMIC, checked
 * the same way whoever mapped the object (the kernel checks none of
 * them): every thread gets a copy of PT_TLS, and the loader makes
 * PT_GNU_RELRO read-only, so neither may reach outside the object. */
static const char *check_segments(const struct dso *p)
{
	size_t page = __libc.page_size;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type == PT_TLS) {
			if (ph->p_filesz > ph->p_memsz || (ph->p_align & (ph->p_align - 1)))
				return "bad PT_TLS segment";
			if (ph->p_memsz > ((size_t)1 << 28) || ph->p_align > ((size_t)1 << 20))
				return "TLS segment too large";
			if (!qb_in_image(p, ph->p_vaddr, ph->p_filesz))
				return "TLS segment outside the loadable segments";
		} else if (ph->p_type == PT_GNU_RELRO && ph->p_memsz) {
			size_t end = ph->p_vaddr + ph->p_memsz;
			if (end < ph->p_vaddr ||
			    !in_writable_pages(p, ph->p_vaddr & -page, end & -page, page))
				return "PT_GNU_RELRO outside the writable segments";
		}
	}
	return 0;
}

/* Where relocations may write: the writable segments, or every one of
 * an object with text relocations. */
static const char *qb_find_writable(struct dso *p)
{
	int textrel = (p->dyn.have & QB_HAVE_TEXTREL) || (p->dyn.flags & DF_TEXTREL);
	p->nwr = 0;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || (!textrel && !(ph->p_flags & PF_W)))
			continue;
		if (p->nwr == sizeof p->wr_lo / sizeof *p->wr_lo)
			return "too many writable segments";
		p->wr_lo[p->nwr] = ph->p_vaddr;
		p->wr_hi[p->nwr] = ph->p_vaddr + ph->p_memsz;
		p->nwr++;
	}
	return 0;
}

/* Decode the dynamic section and check that the tables it names lie in
 * the image. Returns a reason on failure. */
hidden const char *qb_dso_decode(struct dso *p)
{
	const char *why = 0;
	if (!p->is_ldso && (why = check_segments(p)))
		return why;
	size_t max = p->is_ldso ? (size_t)-1 / 32 : p->dyn_size / sizeof(Dyn);
	if (qb_decode_dynamic(p->dynv, max, QB_ELFCLASS == ELFCLASS64, &p->dyn, &why))
		return why;
	struct qb_dyninfo *d = &p->dyn;
	if (!qb_in_image(p, d->strtab, d->strsz) || !qb_in_image(p, d->symtab, sizeof(Sym)))
		return "string or symbol table outside the image";
	p->strings = qb_laddr(p, d->strtab);
	if (d->strsz && p->strings[d->strsz - 1])
		return "string table is not terminated";
	p->syms = qb_laddr(p, d->symtab);
	struct qb_elfview v = { image_at, p, QB_ELFCLASS == ELFCLASS64 };
	if ((why = decode_hashes(p, &v)))
		return why;
	if (!qb_in_image(p, d->symtab, p->nsyms * sizeof(Sym)))
		return "symbol table outside the image";
	if (d->versym && !qb_in_image(p, d->versym, p->nsyms * 2))
		return "version table outside the image";
	p->versym = d->versym ? qb_laddr(p, d->versym) : 0;
	if (d->verdef && !qb_in_image(p, d->verdef, sizeof(Verdef)))
		return "version definitions outside the image";
	if ((d->rela && !qb_in_image(p, d->rela, d->relasz)) ||
	    (d->rel && !qb_in_image(p, d->rel, d->relsz)) ||
	    (d->jmprel && !qb_in_image(p, d->jmprel, d->pltrelsz)) ||
	    (d->relr && !qb_in_image(p, d->relr, d->relrsz)) ||
	    (d->init_array && !qb_in_image(p, d->init_array, d->init_arraysz)) ||
	    (d->fini_array && !qb_in_image(p, d->fini_array, d->fini_arraysz)) ||
	    (d->preinit_array && !qb_in_image(p, d->preinit_array, d->preinit_arraysz)))
		return "relocation or init table outside the image";
	if ((d->have & QB_HAVE_INIT && !qb_in_image(p, d->init, 1)) ||
	    (d->have & QB_HAVE_FINI && !qb_in_image(p, d->fini, 1)))
		return "DT_INIT or DT_FINI outside the image";
	if (d->have & QB_HAVE_SONAME)
		p->soname = p->strings + d->soname;
	if (d->have & QB_HAVE_RPATH)
		p->rpath = (char *)p->strings + d->rpath;
	if (d->have & QB_HAVE_RUNPATH)
		p->runpath = (char *)p->strings + d->runpath;
	if ((why = qb_build_verdefs(p, &v)) || (why = qb_find_writable(p))) {
		/* a refused object owns nothing: its caller frees only p */
		qb_free(p->vdefs);
		qb_free(p->vreqs);
		p->vdefs = p->vreqs = 0;
		p->nvdefs = p->nvreqs = 0;
		return why;
	}
	qb_ext_decoded(p);
	return 0;
}

extern unsigned __default_stacksize hidden;

/* PT_GNU_STACK's size, when set, asks for bigger thread stacks (as musl
 * does; the stack is never made executable). Only the start-up objects'
 * count, as in musl: a library dlopen'ed later would change, behind the
 * program's back, the stack of threads it creates from then on. */
static void qb_stack_request(size_t size)
{
	const size_t max = 8 << 20;
	if (!qb.started && size > __default_stacksize)
		__default_stacksize = size < max ? size : max;
}

/* What a header other than PT_LOAD says of the object, its addresses
 * not yet biased (the TLS image is checked with the dynamic section). */
hidden void qb_note_phdr(struct dso *p, const Phdr *ph)
{
	size_t page = __libc.page_size;
	switch (ph->p_type) {
	case PT_DYNAMIC:
		p->dynv = (size_t *)ph->p_vaddr;
		p->dyn_size = ph->p_memsz;
		break;
	case PT_TLS:
		p->tls = (struct qb_tls_module){ .image = (void *)ph->p_vaddr, .len = ph->p_filesz,
			.size = ph->p_memsz, .align = ph->p_align ? ph->p_align : 1 };
		break;
	case PT_GNU_RELRO:
		p->relro_start = ph->p_vaddr & -page;
		p->relro_end = (ph->p_vaddr + ph->p_memsz) & -page;
		break;
	case PT_GNU_STACK:
		qb_stack_request(ph->p_memsz);
	}
}

/* An object already mapped (by the kernel, or the loader itself), its
 * base and headers known: its headers noted, its dynamic section checked,
 * biased and decoded. Returns a reason on failure. */
hidden const char *qb_dso_describe(struct dso *p)
{
	for (size_t i = 0; i < p->phnum; i++)
		qb_note_phdr(p, &p->phdr[i]);
	size_t dyn = (size_t)p->dynv;
	if (!dyn)
		return "not a dynamic program";
	if (!qb_in_image(p, dyn, p->dyn_size) || p->dyn_size < sizeof(Dyn))
		return "dynamic section outside the loadable segments";
	p->dynv = (size_t *)(p->base + dyn);
	if (p->tls.size)
		p->tls.image = p->base + (size_t)p->tls.image;
	return qb_dso_decode(p);
}

hidden void qb_dso_append(struct dso *p)
{
	p->prev = qb.tail;
	p->next = 0;
	if (qb.tail)
		qb.tail->next = p;
	else
		qb.head = p;
	qb.tail = p;
	qb.ndso++;
	qb_index_add(p);
}
