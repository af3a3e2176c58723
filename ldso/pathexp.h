/* Search-path strings: splitting and $ORIGIN expansion. Pure functions,
 * unit-tested on the host. */
#ifndef QB_PATHEXP_H
#define QB_PATHEXP_H

#include <stddef.h>

/* Expand $ORIGIN and ${ORIGIN} in s[0..len) with origin, writing at most
 * outsz bytes including the terminator. Returns the expanded length, or -1
 * when it does not fit or s uses another $TOKEN we do not support. */
long qb_expand_origin(const char *s, size_t len, const char *origin,
	char *out, size_t outsz);

/* Next element of a list separated by any character of seps (empty
 * elements skipped). *cur advances; returns the element length and its
 * start in *elem, or 0 at the end. */
size_t qb_path_next(const char **cur, const char *seps, const char **elem);

/* Length of the directory part of path ("." semantics: 0 when there is no
 * slash; 1 for a path directly under "/"). */
size_t qb_dirname_len(const char *path);

#endif
