/* Rewriting .dynstr with the symbol names in .dynsym order (a chain walk
 * then reads names from adjacent memory), every reference updated. */
#ifndef LINKOPT_DYNSTR_H
#define LINKOPT_DYNSTR_H

#include "elffile.h"

/* Builds the new string table in *out (malloc'd, *len bytes) and rewrites
 * in e->buf every offset that refers to .dynstr: symbol names, dynamic
 * entries naming strings, version needs and definitions. The caller must
 * then put *out where DT_STRTAB points (in place when it fits). Returns -1
 * when a reference cannot be mapped, 1 when the new table would be larger
 * (linkers merge string suffixes) and !allow_grow; the file is then left
 * unchanged. */
int dynstr_sort(struct elf *e, int allow_grow, uint8_t **out, size_t *len);

#endif
