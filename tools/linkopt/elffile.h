/* A bounds-checked, class-neutral view of one ELF file held in memory.
 * Everything is converted to the 64-bit structures on read and back to the
 * file's own class on write, so the rest of linkopt handles one layout. */
#ifndef LINKOPT_ELF_H
#define LINKOPT_ELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include "elfbuf.h"

struct elf {
	const char *path;
	uint8_t *buf;
	size_t size;
	int is64;
	char err[256];

	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	unsigned phnum;
	Elf64_Shdr *sh;     /* NULL when the file has no section headers */
	unsigned shnum;
	uint64_t shstr_off, shstr_size;

	/* .dynamic, found through PT_DYNAMIC */
	int dyn_ph;          /* index of PT_DYNAMIC, -1 when static */
	uint64_t dyn_off;    /* file offset */
	Elf64_Dyn *dyn;
	unsigned ndyn;       /* entries before the first DT_NULL */
	unsigned dynslots;   /* entries PT_DYNAMIC has room for */

	uint64_t str_off, str_size; /* .dynstr */
	uint64_t sym_off;           /* .dynsym */
	uint32_t nsyms;
	uint64_t versym_off;        /* 0 when absent */
	uint64_t verneed_off, verdef_off;
	unsigned verneednum, verdefnum;
	uint64_t hash_off, gnuhash_off; /* 0 when absent */
	uint64_t hash_size, gnuhash_size; /* bytes, as the shared reader measured them */
	uint64_t rel_off, rel_size; int rel_isrela; /* DT_RELA or DT_REL */
	uint64_t plt_off, plt_size; int plt_isrela; /* DT_JMPREL */
	uint64_t syminfo_off, syminfo_size;
	uint64_t qbt_off, qbt_size;
	uint64_t flags_1;
	const char *interp;

	struct qb_elfbuf f;         /* the file as the shared reader sees it */
	struct qb_dyninfo di;       /* .dynamic as the loader decodes it */
};

int elf_load_file(struct elf *e, const char *path);
/* Takes ownership of buf (malloc'd). */
int elf_parse(struct elf *e, const char *path, uint8_t *buf, size_t size);
void elf_free(struct elf *e);
int elf_err(struct elf *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* vaddr range -> file offset; 0 on success. */
int elf_v2o(const struct elf *e, uint64_t va, uint64_t len, uint64_t *off);
int elf_o2v(const struct elf *e, uint64_t off, uint64_t *va);
/* NUL-terminated string at .dynstr offset, or NULL when out of bounds. */
const char *elf_dynstr(const struct elf *e, uint64_t off);
/* Section name, or "" */
const char *elf_secname(const struct elf *e, unsigned i);
int elf_find_section(const struct elf *e, const char *name);

void elf_sym_get(const struct elf *e, uint32_t i, Elf64_Sym *s);
void elf_sym_put(struct elf *e, uint32_t i, const Elf64_Sym *s);
const char *elf_sym_name(const struct elf *e, uint32_t i);
/* Symbol i is a definition other objects can bind to: defined, global,
 * weak or unique, not a section or file symbol, default or protected
 * visibility. */
int elf_sym_exported(const struct elf *e, uint32_t i);
/* Identity of e's symbol table (docs/FORMAT.md, section 2.1). */
uint64_t elf_symtab_id(const struct elf *e);
/* versym of symbol i, or 1 (global) when there is no versym table. */
uint16_t elf_versym(const struct elf *e, uint32_t i);
/* Version name required by a reference (versym >= 2) and the file it names. */
const char *elf_verneed_name(const struct elf *e, uint16_t idx, const char **file);
const char *elf_verdef_name(const struct elf *e, uint16_t idx);
/* Symbol i's version requirement, and the definition of version index idx,
 * in the form qb_version_match (common/elfview.h) takes, the loader's rule:
 * 1 when there is one. */
int elf_verreq(const struct elf *e, uint32_t i, struct qb_verreq *out);
int elf_verdef_ent(const struct elf *e, uint16_t idx, struct qb_verdef_ent *out);

/* Relocation entries in a 64-bit neutral form. */
struct rel {
	uint64_t off;
	uint32_t sym;
	uint32_t type;
	int64_t addend;
};
size_t elf_relent(const struct elf *e, int isrela);
void elf_rel_get(const struct elf *e, uint64_t at, int isrela, struct rel *r);
void elf_rel_put(struct elf *e, uint64_t at, int isrela, const struct rel *r);
/* fn(arg, r) for every entry of DT_REL/DT_RELA, then of DT_JMPREL. */
void elf_each_rel(const struct elf *e, void (*fn)(void *arg, const struct rel *r), void *arg);

/* Raw writers in the file's class. */
size_t elf_phentsize(const struct elf *e);
size_t elf_shentsize(const struct elf *e);
size_t elf_dynentsize(const struct elf *e);
size_t elf_symentsize(const struct elf *e);
void elf_put_ehdr(const struct elf *e, uint8_t *out);
void elf_put_phdr(const struct elf *e, const Elf64_Phdr *p, uint8_t *out);
void elf_put_shdr(const struct elf *e, const Elf64_Shdr *s, uint8_t *out);
void elf_put_dyn(const struct elf *e, const Elf64_Dyn *d, uint8_t *out);
uint64_t elf_dyn_get(const struct elf *e, int64_t tag, int *found);
int elf_dyn_index(const struct elf *e, int64_t tag);

static inline uint32_t rd32(const uint8_t *p) { return qb_rd32(p); }
static inline uint16_t rd16(const uint8_t *p) { return qb_rd16(p); }
static inline uint64_t rd64(const uint8_t *p) { return qb_rd64(p); }
static inline void wr32(uint8_t *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }
static inline void wr16(uint8_t *p, uint16_t v) { __builtin_memcpy(p, &v, 2); }
static inline void wr64(uint8_t *p, uint64_t v) { __builtin_memcpy(p, &v, 8); }

static inline int in_file(uint64_t size, uint64_t off, uint64_t len)
{
	return qb_in_file(size, off, len);
}

#endif
