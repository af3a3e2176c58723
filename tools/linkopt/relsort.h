/* Grouping the non-PLT relocations of an object by symbol. */
#ifndef LINKOPT_RELSORT_H
#define LINKOPT_RELSORT_H

#include "elffile.h"

/* Stable-sorts the symbolic entries of DT_REL/DT_RELA by symbol index,
 * inside the slots they already occupy: relocations without a symbol
 * (RELATIVE, IRELATIVE, local TLS) keep their exact positions, so
 * DT_RELACOUNT and the order of IRELATIVE resolvers stay valid.
 * Returns the number of entries that moved, or -1. */
long rel_sort(struct elf *e);

#endif
