/* Reordering .dynsym (by hash bucket) with every symbol-index reference
 * renumbered, and building .hash / .gnu.hash for the new order. */
#ifndef LINKOPT_DYNSORT_H
#define LINKOPT_DYNSORT_H

#include "elffile.h"

struct gnu_params { uint32_t nbuckets, symoffset, maskwords, shift; };

/* order[k] = old index of the symbol that goes to position k: index 0 and
 * local symbols first and in place, then (GNU) undefined symbols, then
 * hashed symbols stable-sorted by bucket. *symoffset receives the first
 * hashed index (GNU) or the first non-local one (SysV). */
uint32_t *dynsort_order(const struct elf *e, int gnu, uint32_t nbuckets, uint32_t *symoffset);
/* Applies order to .dynsym, .gnu.version and every relocation's symbol
 * index (DT_REL/DT_RELA and DT_JMPREL). */
int dynsort_apply(struct elf *e, const uint32_t *order);
uint8_t *sysv_hash_build(const struct elf *e, uint32_t nbucket, size_t *len);
uint8_t *gnu_hash_build(const struct elf *e, const struct gnu_params *p, size_t *len);
/* Parameters for an -O1 table: about one symbol per bucket, 8 bloom bits per symbol. */
struct gnu_params gnu_params_o1(const struct elf *e, uint32_t symoffset);
uint32_t prime_at_least(uint32_t n);
uint64_t sysv_hash_size(const struct elf *e);

#endif
