/* Building the byte images of the tables linkopt writes. */
#ifndef LINKOPT_TABLES_H
#define LINKOPT_TABLES_H

#include "bind.h"
#include "elffile.h"
#include "search.h"

/* The quickbind table for e; *len receives its size. */
uint8_t *qbt_build(const struct elf *e, uint32_t flags, size_t *len);

/* What the object expects of one DT_NEEDED library. */
struct needed_id {
	uint32_t dynidx;
	uint64_t id;
};
/* The table with definition hints (hint[nsyms]), their values
 * (value[nsyms], when values is not NULL), the scope's definers
 * (definer[nsyms], when definers is not NULL) and the identities of
 * the needed libraries and definers; self_id is a placeholder until
 * qbt_set_self_id. SysV hash values are written only when flags has
 * QB_TF_SYSVHASH. */
uint8_t *qbt_build_hints(const struct elf *e, uint32_t flags, const uint32_t *hints,
	const uint32_t *values, const uint32_t *definers, const struct needed_id *needed, uint32_t nneeded,
	size_t *len);
/* Write e's own identity into its quickbind table (e->buf). */
int qbt_set_self_id(struct elf *e);
/* Write the identity of e's quickbind table into it (e->buf): last, once
 * every other byte of the table is final. */
int qbt_set_table_id(struct elf *e);
/* A library the loader stands for itself (musl's libc): never opened. */
int loader_itself(const struct lib *lib);
uint8_t *syminfo_build(const struct syminfo *si, uint32_t nsyms, size_t *len);
/* The record of a program's closure, c->libs[1..] as the search found
 * them (docs/FORMAT.md 6); self_si: the program's new syminfo entries
 * (its file does not hold them yet); root: --root's prefix, or NULL. */
struct pagesfile;
uint8_t *closure_record(const struct closure *c, const struct syminfo *self_si, const char *root,
	const struct pagesfile *pf, size_t *len);
/* 1 when the non-PLT relocations against symbols are grouped by symbol. */
int rel_grouped(const struct elf *e);

#endif
