/* The pages of an optimized library's .dynstr that start-up does not read,
 * taken out of its recorded ranges (coldnames.c). */
#ifndef LINKOPT_COLDNAMES_H
#define LINKOPT_COLDNAMES_H

#include <stddef.h>

#include "bind.h"
#include "search.h"
#include "startread.h"

struct coldnames;

/* What the closure c looks up by name, c->libs[0] by its new syminfo
 * entries self_si; NULL when out of memory (then no range is cut). */
struct coldnames *coldnames_new(const struct closure *c, const struct syminfo *self_si);
void coldnames_free(struct coldnames *cn);

/* The ranges r[0..n) of library e without the runs of .dynstr pages
 * start-up does not read (at most max ranges); returns their number. */
size_t coldnames_cut(const struct coldnames *cn, const struct elf *e, struct qb_range *r, size_t n, size_t max);

#endif
