/* The extensions built into the loader, in the order the core asks them
 * (ext.h). fast first: the page policy reads what it decided about an
 * object once the object is relocated. */
#include "ext.h"

extern const struct qb_ext qb_ext_fast hidden, qb_ext_gtab hidden, qb_ext_pages hidden,
	qb_ext_unload hidden;

hidden const struct qb_ext *const qb_exts[] = { &qb_ext_fast, &qb_ext_gtab, &qb_ext_pages,
	&qb_ext_unload, 0 };
