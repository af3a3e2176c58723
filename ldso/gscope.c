/* The scopes: a dlopen handle's (qb_build_scope) and the global scope's
 * order. An object joins the global scope at its end,
 * whether it was loaded with RTLD_GLOBAL or promoted later by a dlopen
 * with RTLD_GLOBAL (RTLD_NOLOAD or not), as in musl and glibc: a symbol
 * that lookups found in an object already global keeps being found
 * there. The load order (the object list, which dl_iterate_phdr and the
 * debugger's link map show) is left as it is. The list starts at the
 * program, which is global from start-up to exit. */
#include "ldso.h"

hidden void qb_global_join(struct dso *p)
{
	if (p->global)
		return;
	/* within a dlopen, journaled: a failure restores the scope */
	if (qb.gtail) {
		qb_txn_save_word((size_t *)&qb.gtail->gnext);
		qb.gtail->gnext = p;
	}
	qb_txn_save_word((size_t *)&qb.gtail);
	qb.gtail = p;
	p->gnext = 0;
	qb_txn_flag(&p->global, 1);
}

/* p is being unloaded (not journaled: no dlopen is under way). */
hidden void qb_global_leave(struct dso *p)
{
	if (!p->global)
		return;
	struct dso *prev = 0;
	for (struct dso *q = qb.head; q && q != p; q = q->gnext)
		prev = q;
	if (prev)
		prev->gnext = p->gnext;
	if (qb.gtail == p)
		qb.gtail = prev;
	p->gnext = 0;
	p->global = 0;
}

/* p and everything it depends on, breadth first: the scope of a handle. */
hidden void qb_build_scope(struct dso *p)
{
	struct dso **v = p->scope ? 0 : qb_malloc(qb.ndso * sizeof *v);
	size_t n = 0;
	if (!v)
		return;
	for (struct dso *q = qb.head; q; q = q->next)
		q->mark = 0;
	v[n++] = p;
	p->mark = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < v[i]->ndeps; k++)
			if (!v[i]->deps[k]->mark) {
				v[i]->deps[k]->mark = 1;
				v[n++] = v[i]->deps[k];
			}
	p->scope = v;
	p->nscope = n;
}
