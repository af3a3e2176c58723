/* A loader with no extension (make QB_EXT=none): the core alone, the
 * standard lookup for every reference. No relocation is bound in a
 * hinted mode, so there is nothing to watch, and nothing unloads, so no
 * registration pins anything. */
#include "ext.h"

hidden const struct qb_ext *const qb_exts[] = { 0 };

hidden void qb_observe(struct dso *p, const struct qb_prepared *s, const size_t *r, const size_t *end,
	int rela, int mode)
{
	(void)p, (void)s, (void)r, (void)end, (void)rela, (void)mode;
}

hidden void qb_ext_registered(const void *a, const void *b, const void *c)
{
	(void)a, (void)b, (void)c;
}
