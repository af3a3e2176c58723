/* Building the byte images of the tables linkopt writes. */
#ifndef LINKOPT_TABLES_H
#define LINKOPT_TABLES_H

#include "bind.h"
#include "elffile.h"

/* The quickbind table for e; *len receives its size. */
uint8_t *qbt_build(const struct elf *e, uint32_t flags, size_t *len);
uint8_t *syminfo_build(const struct syminfo *si, uint32_t nsyms, size_t *len);
/* 1 when the non-PLT relocations against symbols are grouped by symbol. */
int rel_grouped(const struct elf *e);

#endif
