/* Reading a file into struct elf: the file whole, then the checks
 * linkopt makes before it changes anything, in the order of its parts. */
#include "elffile.h"
#include "qbtable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
		e->hash_size = h.sysv_size;
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
	if (elf_v2o(e, e->di.symtab, elf_symentsize(e), &e->sym_off) < 0)
		return elf_err(e, ".dynsym outside the file");
	if (count_symbols(e) < 0)
		return -1;
	uint64_t tmp;
	if (elf_v2o(e, e->di.symtab, (uint64_t)e->nsyms * elf_symentsize(e), &tmp) < 0)
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

/* linkopt rewrites these tables in place, each read as it was: one lying
 * over another would be rewritten twice or read half-rewritten (a
 * .gnu.version over relocations turns their symbol indices into
 * whatever the new version order holds). No linker makes them overlap. */
static int tables_disjoint(struct elf *e)
{
	size_t se = elf_symentsize(e);
	struct {
		const char *name;
		uint64_t off, size;
	} t[] = {
		{ ".dynsym", e->sym_off, (uint64_t)e->nsyms * se },
		{ "DT_VERSYM", e->versym_off, e->versym_off ? 2ull * e->nsyms : 0 },
		{ ".dynstr", e->str_off, e->str_size },
		{ e->rel_isrela ? "DT_RELA" : "DT_REL", e->rel_off, e->rel_size },
		{ "DT_JMPREL", e->plt_off, e->plt_size },
		{ "DT_HASH", e->hash_off, e->hash_off ? 8 + 4ull * rd32(e->buf + e->hash_off) +
			4ull * rd32(e->buf + e->hash_off + 4) : 0 },
		{ "DT_GNU_HASH", e->gnuhash_off, e->gnuhash_off ? e->gnuhash_size : 0 },
	};
	unsigned n = sizeof t / sizeof *t;
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (t[i].size && t[j].size && t[i].off < t[j].off + t[j].size &&
			    t[j].off < t[i].off + t[i].size)
				return elf_err(e, "%s overlaps %s", t[i].name, t[j].name);
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
	    parse_tables(e) || tables_disjoint(e))
		return -1;
	return 0;
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
