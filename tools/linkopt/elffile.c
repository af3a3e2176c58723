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

int elf_load_file(struct elf *e, const char *path)
{
	memset(e, 0, sizeof *e);
	e->path = path;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return elf_err(e, "%s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return elf_err(e, "not a regular file");
	}
	size_t size = (size_t)st.st_size;
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf) {
		close(fd);
		return elf_err(e, "out of memory");
	}
	size_t got = 0;
	while (got < size) {
		ssize_t n = read(fd, buf + got, size - got);
		if (n <= 0) {
			free(buf);
			close(fd);
			return elf_err(e, "read error: %s", n ? strerror(errno) : "short read");
		}
		got += (size_t)n;
	}
	close(fd);
	return elf_parse(e, path, buf, size);
}

size_t elf_phentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr); }
size_t elf_shentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr); }
size_t elf_dynentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn); }
static size_t symentsize(const struct elf *e) { return e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym); }
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
	const uint8_t *p = e->buf + e->sym_off + (uint64_t)i * symentsize(e);
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
	uint8_t *p = e->buf + e->sym_off + (uint64_t)i * symentsize(e);
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

/* elf_parse's phases: each checks one part of the file and fills the
 * fields that describe it; the tables are read by the shared ELF reader
 * (common/elfview.c), the same code the loader runs on mapped images. */

static int parse_header(struct elf *e)
{
	const char *why = qb_elfbuf_ehdr(e->buf, e->size, &e->eh);
	if (why)
		return elf_err(e, "%s", why);
	e->is64 = e->eh.e_ident[EI_CLASS] == ELFCLASS64;
	unsigned want = e->is64 ? EM_X86_64 : EM_386;
	if (e->eh.e_machine != want)
		return elf_err(e, "unsupported machine %u for ELFCLASS%d", e->eh.e_machine, e->is64 ? 64 : 32);
	if (e->eh.e_type != ET_EXEC && e->eh.e_type != ET_DYN)
		return elf_err(e, "not an executable or shared object");
	return 0;
}

static int parse_segments(struct elf *e)
{
	if (!e->eh.e_phnum || e->eh.e_phentsize != elf_phentsize(e))
		return elf_err(e, "bad program header table");
	e->phnum = e->eh.e_phnum;
	if (!in_file(e->size, e->eh.e_phoff, (uint64_t)e->phnum * e->eh.e_phentsize))
		return elf_err(e, "program header table outside the file");
	e->ph = calloc(e->phnum + 2, sizeof *e->ph);
	if (!e->ph)
		return elf_err(e, "out of memory");
	for (unsigned i = 0; i < e->phnum; i++) {
		Elf64_Phdr *p = &e->ph[i];
		qb_elfbuf_phdr(e->buf, e->is64, e->eh.e_phoff, i, p);
		if (p->p_type == PT_LOAD || p->p_type == PT_DYNAMIC || p->p_type == PT_INTERP) {
			if (!in_file(e->size, p->p_offset, p->p_filesz))
				return elf_err(e, "segment %u outside the file (truncated?)", i);
			if (p->p_filesz > p->p_memsz)
				return elf_err(e, "segment %u larger in the file than in memory", i);
		}
		if (p->p_type == PT_DYNAMIC && e->dyn_ph < 0)
			e->dyn_ph = (int)i;
		if (p->p_type == PT_INTERP && p->p_filesz) {
			const char *s = (const char *)e->buf + p->p_offset;
			if (memchr(s, 0, p->p_filesz))
				e->interp = s;
		}
	}
	qb_elfbuf_init(&e->f, e->buf, e->size, &e->eh, e->ph, e->phnum);
	return 0;
}

/* Section headers are optional, but must be sane when present. */
static int parse_sections(struct elf *e)
{
	if (!e->eh.e_shoff || !e->eh.e_shnum)
		return 0;
	if (e->eh.e_shentsize != elf_shentsize(e))
		return elf_err(e, "bad section header size");
	if (!in_file(e->size, e->eh.e_shoff, (uint64_t)e->eh.e_shnum * e->eh.e_shentsize))
		return elf_err(e, "section header table outside the file (truncated?)");
	e->shnum = e->eh.e_shnum;
	e->sh = calloc(e->shnum + 8, sizeof *e->sh);
	if (!e->sh)
		return elf_err(e, "out of memory");
	for (unsigned i = 0; i < e->shnum; i++) {
		Elf64_Shdr *s = &e->sh[i];
		qb_elfbuf_shdr(e->buf, e->is64, e->eh.e_shoff, i, s);
		if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL && !in_file(e->size, s->sh_offset, s->sh_size))
			return elf_err(e, "section %u outside the file (truncated?)", i);
	}
	if (e->eh.e_shstrndx && e->eh.e_shstrndx < e->shnum) {
		/* Only a string table's extent was checked above; the names
		 * are read and the table copied from the file. */
		const Elf64_Shdr *s = &e->sh[e->eh.e_shstrndx];
		if (s->sh_type != SHT_STRTAB)
			return elf_err(e, "section-name table (section %u) is not a string table",
				       e->eh.e_shstrndx);
		e->shstr_off = s->sh_offset;
		e->shstr_size = s->sh_size;
	}
	return 0;
}

/* .dynamic: decoded by the shared reader, and kept as an array of
 * entries that the layout rewrites. */
static int parse_dynamic(struct elf *e)
{
	const Elf64_Phdr *dp = &e->ph[e->dyn_ph];
	size_t de = elf_dynentsize(e);
	e->dyn_off = dp->p_offset;
	e->dynslots = (unsigned)(dp->p_filesz / de);
	if (!e->dynslots)
		return elf_err(e, "empty PT_DYNAMIC");
	const char *why;
	if (qb_decode_dynamic(e->buf + e->dyn_off, e->dynslots, e->is64, &e->di, &why))
		return elf_err(e, "%s", why);
	e->dyn = calloc(e->dynslots + 16, sizeof *e->dyn);
	if (!e->dyn)
		return elf_err(e, "out of memory");
	e->ndyn = (unsigned)e->di.ndyn;
	for (unsigned i = 0; i < e->ndyn; i++)
		qb_elfbuf_dyn(e->buf, e->is64, e->dyn_off, i, &e->dyn[i]);
	return 0;
}

/* The number of symbols comes from the hash tables (the loader's count),
 * or from the .dynsym section header when that says more. */
static int count_symbols(struct elf *e)
{
	uint32_t n_sec = 0;
	for (unsigned k = 1; k < e->shnum; k++)
		if (e->sh[k].sh_type == SHT_DYNSYM && e->sh[k].sh_addr == e->di.symtab && e->sh[k].sh_entsize)
			n_sec = (uint32_t)(e->sh[k].sh_size / e->sh[k].sh_entsize);
	uint64_t n = 0;
	if (e->di.hash || e->di.gnu_hash) {
		struct qb_hashinfo h;
		const char *why = qb_hashinfo(&e->f.view, e->di.hash, e->di.gnu_hash, &h);
		if (why)
			return elf_err(e, "%s", why);
		if (e->di.hash && elf_v2o(e, e->di.hash, 8, &e->hash_off) < 0)
			return elf_err(e, "DT_HASH outside the file");
		if (e->di.gnu_hash && elf_v2o(e, e->di.gnu_hash, 16, &e->gnuhash_off) < 0)
			return elf_err(e, "DT_GNU_HASH outside the file");
		e->gnuhash_size = h.gnu_size;
		n = h.nsyms;
	} else if (!n_sec) {
		return elf_err(e, "cannot tell the number of dynamic symbols (no hash table)");
	}
	if (n_sec > n)
		n = n_sec;
	if (n > UINT32_MAX)
		return elf_err(e, "too many dynamic symbols");
	e->nsyms = (uint32_t)n;
	return 0;
}

static int parse_symbols(struct elf *e)
{
	int fsz;
	e->str_size = elf_dyn_get(e, DT_STRSZ, &fsz);
	if (!fsz)
		return elf_err(e, ".dynamic lacks DT_STRTAB, DT_STRSZ or DT_SYMTAB");
	if (elf_v2o(e, e->di.strtab, e->str_size, &e->str_off) < 0 || !e->str_size)
		return elf_err(e, ".dynstr outside the file");
	for (unsigned k = 0; k < e->ndyn; k++) {
		int64_t t = e->dyn[k].d_tag;
		if ((t == DT_NEEDED || t == DT_SONAME || t == DT_RPATH || t == DT_RUNPATH) &&
		    !elf_dynstr(e, e->dyn[k].d_un.d_val))
			return elf_err(e, "dynamic entry %u names a string outside .dynstr", k);
	}
	if (elf_v2o(e, e->di.symtab, symentsize(e), &e->sym_off) < 0)
		return elf_err(e, ".dynsym outside the file");
	if (count_symbols(e) < 0)
		return -1;
	uint64_t tmp;
	if (elf_v2o(e, e->di.symtab, (uint64_t)e->nsyms * symentsize(e), &tmp) < 0)
		return elf_err(e, ".dynsym (%u symbols) outside the file", e->nsyms);
	for (uint32_t s = 0; s < e->nsyms; s++) {
		Elf64_Sym sym;
		elf_sym_get(e, s, &sym);
		if (!elf_dynstr(e, sym.st_name))
			return elf_err(e, "symbol %u has a name outside .dynstr", s);
	}
	return 0;
}

static int parse_versions(struct elf *e)
{
	const struct qb_dyninfo *d = &e->di;
	if (d->versym && elf_v2o(e, d->versym, 2ull * e->nsyms, &e->versym_off) < 0)
		return elf_err(e, "DT_VERSYM outside the file");
	if (d->verneed) {
		e->verneednum = (unsigned)d->verneednum;
		if (elf_v2o(e, d->verneed, sizeof(Elf64_Verneed), &e->verneed_off) < 0)
			return elf_err(e, "DT_VERNEED outside the file");
	}
	if (d->verdef) {
		e->verdefnum = (unsigned)d->verdefnum;
		if (elf_v2o(e, d->verdef, sizeof(Elf64_Verdef), &e->verdef_off) < 0)
			return elf_err(e, "DT_VERDEF outside the file");
	}
	return 0;
}

static int dyn_range(struct elf *e, int64_t ptag, int64_t sztag, uint64_t *off, uint64_t *size, const char *what)
{
	int fa, fs;
	uint64_t va = elf_dyn_get(e, ptag, &fa);
	uint64_t sz = elf_dyn_get(e, sztag, &fs);
	*off = 0;
	*size = 0;
	if (!fa)
		return 0;
	if (!fs)
		return elf_err(e, "%s without its size", what);
	if (elf_v2o(e, va, sz, off) < 0)
		return elf_err(e, "%s outside the file", what);
	*size = sz;
	return 0;
}

/* Every relocation must name a symbol that exists. */
static int parse_relocs(struct elf *e)
{
	if (dyn_range(e, DT_RELA, DT_RELASZ, &e->rel_off, &e->rel_size, "DT_RELA") < 0)
		return -1;
	e->rel_isrela = 1;
	if (!e->rel_off) {
		if (dyn_range(e, DT_REL, DT_RELSZ, &e->rel_off, &e->rel_size, "DT_REL") < 0)
			return -1;
		e->rel_isrela = 0;
	}
	if (dyn_range(e, DT_JMPREL, DT_PLTRELSZ, &e->plt_off, &e->plt_size, "DT_JMPREL") < 0)
		return -1;
	e->plt_isrela = e->di.pltrel == DT_RELA;
	if (e->plt_off && !e->plt_isrela && e->di.pltrel != DT_REL)
		return elf_err(e, "bad DT_PLTREL");
	if (e->rel_size % elf_relent(e, e->rel_isrela) || e->plt_size % elf_relent(e, e->plt_isrela))
		return elf_err(e, "relocation table size not a multiple of its entry size");
	for (int t = 0; t < 2; t++) {
		uint64_t o = t ? e->plt_off : e->rel_off, sz = t ? e->plt_size : e->rel_size;
		int ra = t ? e->plt_isrela : e->rel_isrela;
		size_t re = elf_relent(e, ra);
		for (uint64_t k = 0; k + re <= sz; k += re) {
			struct rel r;
			elf_rel_get(e, o + k, ra, &r);
			if (r.sym >= e->nsyms)
				return elf_err(e, "relocation names symbol %u of %u", r.sym, e->nsyms);
		}
	}
	return 0;
}

static int parse_tables(struct elf *e)
{
	if (dyn_range(e, DT_SYMINFO, DT_SYMINSZ, &e->syminfo_off, &e->syminfo_size, "DT_SYMINFO") < 0 ||
	    dyn_range(e, DT_QB_TABLE, DT_QB_TABLESZ, &e->qbt_off, &e->qbt_size, "DT_QB_TABLE") < 0)
		return -1;
	e->flags_1 = e->di.flags_1;
	return 0;
}

int elf_parse(struct elf *e, const char *path, uint8_t *buf, size_t size)
{
	memset(e, 0, sizeof *e);
	e->path = path;
	e->buf = buf;
	e->size = size;
	e->dyn_ph = -1;
	if (parse_header(e) || parse_segments(e) || parse_sections(e))
		return -1;
	if (e->dyn_ph < 0)
		return 0;
	if (parse_dynamic(e) || parse_symbols(e) || parse_versions(e) || parse_relocs(e) ||
	    parse_tables(e))
		return -1;
	return 0;
}
