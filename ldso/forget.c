/* The one way an object leaves the loader (a failed dlopen's, or one the
 * unload extension unloads): destructors, references to it, memory. */
#include <sys/mman.h>
#include "ext/ext.h"

/* The objects one dlclose (or one undone dlopen) unloads are unmapped
 * after every destructor has run, as glibc does: a destructor may still
 * call into another object of the same batch. */
static struct range {
	unsigned char *start;
	size_t len;
} doomed[32];
static size_t ndoomed;

hidden void qb_unmap_flush(void)
{
	for (; ndoomed; ndoomed--)
		munmap(doomed[ndoomed - 1].start, doomed[ndoomed - 1].len);
}

static void unmap_later(unsigned char *start, size_t len)
{
	if (ndoomed == sizeof doomed / sizeof *doomed)
		qb_unmap_flush();
	doomed[ndoomed++] = (struct range){ start, len };
}

static void free_dso(struct dso *p)
{
	qb_drop_lazy(p);
	qb_ext_released(p);
	for (void **m = p->owned, **next; m; m = next) {
		next = m[0];
		qb_free(m);
	}
	if (p->map)
		unmap_later(p->map, p->map_len);
	if (p->phdr && !(p->map && (unsigned char *)p->phdr >= p->map &&
	    (unsigned char *)p->phdr < p->map + p->map_len))
		qb_free(p->phdr);
	qb_free(p->deps);
	qb_free(p->scope);
	qb_free(p->vdefs);
	qb_free(p->vreqs);
	qb_free(p->name);
	qb_free((void *)p->shortname);
	qb_free(p);
}

hidden void qb_forget_object(struct dso *p)
{
	p->unloading = 1;
	qb_run_fini(p);
	qb_index_remove(p);
	if (p->prev)
		p->prev->next = p->next;
	if (p->next)
		p->next->prev = p->prev;
	if (qb.tail == p)
		qb.tail = p->prev;
	qb.ndso--;
	qb_global_leave(p);
	qb_ext_scope_changed();
	for (struct dso *q = qb.head; q; q = q->next) {
		/* Objects relocated in p's scope outlive it: RTLD_NEXT and
		 * later lookups from them must not reach it. */
		if (q->reloc_root == p)
			q->reloc_root = q;
		/* The search chain of q's dependencies skips p. */
		if (q->needed_by == p)
			q->needed_by = p->needed_by;
		for (size_t i = 0; i < q->nscope; i++)
			if (q->scope[i] == p) {
				qb_free(q->scope);
				q->scope = 0;
				q->nscope = 0;
				break;
			}
	}
	free_dso(p);
}

/* A failed dlopen: the objects it added, newest first (an object goes
 * before what it depends on), after the journal's undo (qb_txn_abort). */
hidden void qb_forget_since(struct dso *old_tail)
{
	while (qb.tail != old_tail && !qb.tail->is_ldso && !qb.tail->is_main)
		qb_forget_object(qb.tail);
	qb_unmap_flush();
	qb_ext_scope_changed();
}
