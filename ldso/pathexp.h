/* Splitting option lists (LD_PRELOAD, LD_DEBUG). A pure function,
 * unit-tested on the host; $ORIGIN is common/libsearch.c's. */
#ifndef QB_PATHEXP_H
#define QB_PATHEXP_H

#include <stddef.h>

/* Next element of a list separated by any character of seps (empty
 * elements skipped). *cur advances; returns the element length and its
 * start in *elem, or 0 at the end. */
size_t qb_path_next(const char **cur, const char *seps, const char **elem);

#endif
