/* A loader with no extension (make QB_EXT=none): the core alone, the
 * standard lookup for every reference. */
#include "ext.h"

hidden const struct qb_ext *const qb_exts[] = { 0 };
