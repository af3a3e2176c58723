/* An ELF file in memory for linkopt: its structures in the file's own
 * class (written back by the layout), and lookups in its tables.
 * elfparse.c reads and checks a file; both go through the loader's own
 * reader (common/elfview.h) for the dynamic tables. */
#include "elffile.h"
#include "qbtable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int elf_err(struct elf *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->err, sizeof e->err, fmt, ap);
	va_end(ap);
	return -1;
}

void elf_free(struct elf *e)
{
	free(e->buf);
	free(e->ph);
	free(e->sh);
	free(e->dyn);
	memset(e, 0, sizeof *e);
}

size_t elf_phentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr); }
size_t elf_shentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr); }
size_t elf_dynentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn); }
size_t elf_symentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym); }
size_t elf_relent(const struct elf *e, int isrela)
{
	if (e->is64)
		return isrela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
	return isrela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel);
}

void elf_put_phdr(const struct elf *e, const Elf64_Phdr *p, uint8_t *out)
{
	if (e->is64) {
		memcpy(out, p, sizeof *p);
		return;
	}
	Elf32_Phdr s = {
		.p_type = p->p_type, .p_offset = (Elf32_Off)p->p_offset,
		.p_vaddr = (Elf32_Addr)p->p_vaddr, .p_paddr = (Elf32_Addr)p->p_paddr,
		.p_filesz = (Elf32_Word)p->p_filesz, .p_memsz = (Elf32_Word)p->p_memsz,
		.p_flags = p->p_flags, .p_align = (Elf32_Word)p->p_align,
	};
	memcpy(out, &s, sizeof s);
}

void elf_put_shdr(const struct elf *e, const Elf64_Shdr *p, uint8_t *out)
{
	if (e->is64) {
		memcpy(out, p, sizeof *p);
		return;
	}
	Elf32_Shdr s = {
		.sh_name = p->sh_name, .sh_type = p->sh_type,
		.sh_flags = (Elf32_Word)p->sh_flags, .sh_addr = (Elf32_Addr)p->sh_addr,
		.sh_offset = (Elf32_Off)p->sh_offset, .sh_size = (Elf32_Word)p->sh_size,
		.sh_link = p->sh_link, .sh_info = p->sh_info,
		.sh_addralign = (Elf32_Word)p->sh_addralign,
		.sh_entsize = (Elf32_Word)p->sh_entsize,
	};
	memcpy(out, &s, sizeof s);
}

void elf_put_dyn(const struct elf *e, const Elf64_Dyn *d, uint8_t *out)
{
	if (e->is64) {
		memcpy(out, d, sizeof *d);
		return;
	}
	Elf32_Dyn s = { .d_tag = (Elf32_Sword)d->d_tag, .d_un.d_val = (Elf32_Word)d->d_un.d_val };
	memcpy(out, &s, sizeof s);
}

void elf_put_ehdr(const struct elf *e, uint8_t *out)
{
	const Elf64_Ehdr *h = &e->eh;
	if (e->is64) {
		memcpy(out, h, sizeof *h);
		return;
	}
	Elf32_Ehdr s;
	memcpy(s.e_ident, h->e_ident, EI_NIDENT);
	s.e_type = h->e_type; s.e_machine = h->e_machine; s.e_version = h->e_version;
	s.e_entry = (Elf32_Addr)h->e_entry; s.e_phoff = (Elf32_Off)h->e_phoff;
	s.e_shoff = (Elf32_Off)h->e_shoff; s.e_flags = h->e_flags;
	s.e_ehsize = h->e_ehsize; s.e_phentsize = h->e_phentsize; s.e_phnum = h->e_phnum;
	s.e_shentsize = h->e_shentsize; s.e_shnum = h->e_shnum; s.e_shstrndx = h->e_shstrndx;
	memcpy(out, &s, sizeof s);
}

void elf_sym_get(const struct elf *e, uint32_t i, Elf64_Sym *o)
{
	const uint8_t *p = e->buf + e->sym_off + (uint64_t)i * elf_symentsize(e);
	if (e->is64) {
		memcpy(o, p, sizeof *o);
		return;
	}
	Elf32_Sym s;
	memcpy(&s, p, sizeof s);
	o->st_name = s.st_name; o->st_info = s.st_info; o->st_other = s.st_other;
	o->st_shndx = s.st_shndx; o->st_value = s.st_value; o->st_size = s.st_size;
}

void elf_sym_put(struct elf *e, uint32_t i, const Elf64_Sym *o)
{
	uint8_t *p = e->buf + e->sym_off + (uint64_t)i * elf_symentsize(e);
	if (e->is64) {
		memcpy(p, o, sizeof *o);
		return;
	}
	Elf32_Sym s = {
		.st_name = o->st_name, .st_info = o->st_info, .st_other = o->st_other,
		.st_shndx = o->st_shndx, .st_value = (Elf32_Addr)o->st_value,
		.st_size = (Elf32_Word)o->st_size,
	};
	memcpy(p, &s, sizeof s);
}

void elf_rel_get(const struct elf *e, uint64_t at, int isrela, struct rel *r)
{
	const uint8_t *p = e->buf + at;
	if (e->is64) {
		uint64_t info = rd64(p + 8);
		r->off = rd64(p);
		r->sym = (uint32_t)(info >> 32);
		r->type = (uint32_t)info;
		r->addend = isrela ? (int64_t)rd64(p + 16) : 0;
	} else {
		uint32_t info = rd32(p + 4);
		r->off = rd32(p);
		r->sym = info >> 8;
		r->type = info & 0xff;
		r->addend = isrela ? (int32_t)rd32(p + 8) : 0;
	}
}

void elf_rel_put(struct elf *e, uint64_t at, int isrela, const struct rel *r)
{
	uint8_t *p = e->buf + at;
	if (e->is64) {
		wr64(p, r->off);
		wr64(p + 8, ((uint64_t)r->sym << 32) | r->type);
		if (isrela)
			wr64(p + 16, (uint64_t)r->addend);
	} else {
		wr32(p, (uint32_t)r->off);
		wr32(p + 4, (r->sym << 8) | (r->type & 0xff));
		if (isrela)
			wr32(p + 8, (uint32_t)r->addend);
	}
}

int elf_v2o(const struct elf *e, uint64_t va, uint64_t len, uint64_t *off)
{
	return qb_elfbuf_v2o(&e->f, va, len, off);
}

int elf_o2v(const struct elf *e, uint64_t off, uint64_t *va)
{
	for (unsigned i = 0; i < e->phnum; i++) {
		const Elf64_Phdr *p = &e->ph[i];
		if (p->p_type == PT_LOAD && off >= p->p_offset && off - p->p_offset < p->p_filesz) {
			*va = p->p_vaddr + (off - p->p_offset);
			return 0;
		}
	}
	return -1;
}

const char *elf_dynstr(const struct elf *e, uint64_t off)
{
	if (off >= e->str_size)
		return NULL;
	const char *s = (const char *)e->buf + e->str_off + off;
	if (!memchr(s, 0, e->str_size - off))
		return NULL;
	return s;
}

const char *elf_secname(const struct elf *e, unsigned i)
{
	if (!e->sh || i >= e->shnum || e->sh[i].sh_name >= e->shstr_size)
		return "";
	const char *s = (const char *)e->buf + e->shstr_off + e->sh[i].sh_name;
	return memchr(s, 0, e->shstr_size - e->sh[i].sh_name) ? s : "";
}

int elf_find_section(const struct elf *e, const char *name)
{
	for (unsigned i = 1; i < e->shnum; i++)
		if (!strcmp(elf_secname(e, i), name))
			return (int)i;
	return -1;
}

const char *elf_sym_name(const struct elf *e, uint32_t i)
{
	Elf64_Sym s;
	elf_sym_get(e, i, &s);
	const char *n = elf_dynstr(e, s.st_name);
	return n ? n : "";
}

int elf_sym_exported(const struct elf *e, uint32_t i)
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

uint64_t elf_symtab_id(const struct elf *e)
{
	size_t symsz = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	return qb_symtab_id(e->buf + e->sym_off, (size_t)e->nsyms * symsz,
		e->buf + e->str_off, e->str_size,
		e->versym_off ? e->buf + e->versym_off : NULL, 2ull * e->nsyms);
}

uint16_t elf_versym(const struct elf *e, uint32_t i)
{
	return e->versym_off ? rd16(e->buf + e->versym_off + 2ull * i) : 1;
}

struct find_version {
	const struct elf *e;
	uint16_t idx;
	const char *name, *file;
};

static int match_vernaux(void *arg, const struct qb_vernaux_rec *n)
{
	struct find_version *f = arg;
	if ((n->other & 0x7fff) != (f->idx & 0x7fff))
		return 0;
	f->name = elf_dynstr(f->e, n->name);
	f->file = elf_dynstr(f->e, n->file);
	return 1;
}

static int match_verdef(void *arg, const struct qb_verdef_rec *d)
{
	struct find_version *f = arg;
	if (d->ndx != (f->idx & 0x7fff) || !d->cnt)
		return 0;
	f->name = elf_dynstr(f->e, d->name);
	return 1;
}

/* A broken chain names no version: the walk stops at its first bad link. */
const char *elf_verneed_name(const struct elf *e, uint16_t idx, const char **file)
{
	struct find_version f = { e, idx, NULL, NULL };
	if (e->verneed_off)
		qb_each_vernaux(&e->f.view, e->di.verneed, e->verneednum, match_vernaux, &f);
	if (file && f.name)
		*file = f.file;
	return f.name;
}

const char *elf_verdef_name(const struct elf *e, uint16_t idx)
{
	struct find_version f = { e, idx, NULL, NULL };
	if (e->verdef_off)
		qb_each_verdef(&e->f.view, e->di.verdef, e->verdefnum, match_verdef, &f);
	return f.name;
}

struct find_entry {
	const struct elf *e;
	uint16_t idx;
	int found;
	struct qb_verreq req;
	struct qb_verdef_ent def;
};

static int entry_vernaux(void *arg, const struct qb_vernaux_rec *n)
{
	struct find_entry *f = arg;
	if ((n->other & 0x7fff) != f->idx || !(f->req.name = elf_dynstr(f->e, n->name)))
		return 0;
	f->req.hash = n->hash;
	f->found = 1;
	return 0;   /* the loader's table keeps the last entry of an index */
}

int elf_verreq(const struct elf *e, uint32_t i, struct qb_verreq *out)
{
	uint16_t vs = elf_versym(e, i);
	struct find_entry f = { .e = e, .idx = vs & 0x7fff };
	if (!e->versym_off || f.idx <= VER_NDX_GLOBAL || !e->verneed_off)
		return 0;
	qb_each_vernaux(&e->f.view, e->di.verneed, e->verneednum, entry_vernaux, &f);
	if (!f.found)
		return 0;
	*out = f.req;
	out->is_hidden = !!(vs & 0x8000);
	return 1;
}

static int entry_verdef(void *arg, const struct qb_verdef_rec *d)
{
	struct find_entry *f = arg;
	if ((d->ndx & 0x7fff) != f->idx || !(f->def.name = elf_dynstr(f->e, d->name)))
		return 0;
	f->def.hash = d->hash;
	f->def.base = !!(d->flags & VER_FLG_BASE);
	f->found = 1;
	return 0;
}

int elf_verdef_ent(const struct elf *e, uint16_t idx, struct qb_verdef_ent *out)
{
	struct find_entry f = { .e = e, .idx = idx & 0x7fff };
	if (!e->verdef_off)
		return 0;
	qb_each_verdef(&e->f.view, e->di.verdef, e->verdefnum, entry_verdef, &f);
	if (f.found)
		*out = f.def;
	return f.found;
}

uint64_t elf_dyn_get(const struct elf *e, int64_t tag, int *found)
{
	for (unsigned i = 0; i < e->ndyn; i++)
		if (e->dyn[i].d_tag == tag) {
			if (found)
				*found = 1;
			return e->dyn[i].d_un.d_val;
		}
	if (found)
		*found = 0;
	return 0;
}

int elf_dyn_index(const struct elf *e, int64_t tag)
{
	for (unsigned i = 0; i < e->ndyn; i++)
		if (e->dyn[i].d_tag == tag)
			return (int)i;
	return -1;
}

void elf_each_rel(const struct elf *e, void (*fn)(void *arg, const struct rel *r), void *arg)
{
	const struct { uint64_t off, size; int rela; } t[2] = {
		{ e->rel_off, e->rel_size, e->rel_isrela }, { e->plt_off, e->plt_size, e->plt_isrela } };
	for (unsigned k = 0; k < 2; k++) {
		size_t re = elf_relent(e, t[k].rela);
		for (uint64_t at = 0; t[k].size && at + re <= t[k].size; at += re) {
			struct rel r;
			elf_rel_get(e, t[k].off + at, t[k].rela, &r);
			fn(arg, &r);
		}
	}
}
