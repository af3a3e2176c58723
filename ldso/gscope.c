/* The global scope's order. An object joins the global scope at its end,
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
