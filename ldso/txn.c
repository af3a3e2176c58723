/* dlopen as a transaction. Everything a dlopen changes in the loader's
 * state is one of:
 *  - objects appended to the object list (with their TLS modules): the
 *    list only grows during a dlopen, so the transaction records where it
 *    ended, and the TLS module count and sizes;
 *  - a byte of an object that was already loaded (promotion to the global
 *    scope, a pin against unloading) or a word of its memory (a deferred
 *    PLT slot bound at last): recorded in a journal before it changes;
 *  - state derived from those (the interposer list and its bloom filter,
 *    scope and symbol caches), recomputed from them.
 * qb_txn_abort undoes all of it in one place; qb_forget_object is the one
 * way an object leaves the loader, used by that undo and by dlclose. */
#include <sys/mman.h>
#include "ext/ext.h"

enum { UNDO_BYTE, UNDO_WORD };

struct undo {
	unsigned char kind;
	void *addr;
	size_t old;
};

static struct undo *journal;
static size_t njournal, capjournal;
static struct qb_txn *current;

/* Room for one more entry, before the change it records is made: out of
 * memory fails the transaction with nothing changed. */
static void record(unsigned char kind, void *addr, size_t old)
{
	if (njournal == capjournal) {
		size_t cap = capjournal ? 2 * capjournal : 32;
		struct undo *n = __libc_realloc(journal, cap * sizeof *n);
		if (!n)
			qb_error("%s: out of memory in dlopen", QB_LDSO_NAME);
		journal = n;
		capjournal = cap;
	}
	journal[njournal++] = (struct undo){ kind, addr, old };
}

hidden void qb_txn_flag(unsigned char *field, unsigned char v)
{
	if (*field == v)
		return;
	if (current)
		record(UNDO_BYTE, field, *field);
	*field = v;
}

hidden void qb_txn_save_word(size_t *where)
{
	if (current)
		record(UNDO_WORD, where, *where);
}

/* One at a time: a dlopen from code that runs inside another (an IFUNC
 * resolver) is refused (-1), not nested. */
hidden int qb_txn_begin(struct qb_txn *t)
{
	if (current)
		return -1;
	t->old_tail = qb.tail;
	t->tls_cnt = qb.tls_cnt;
	t->tls_offset = qb.tls_offset;
	t->tls_align = qb.tls_align;
	current = t;
	return 0;
}

hidden void qb_txn_commit(struct qb_txn *t)
{
	(void)t;
	current = 0;
	njournal = 0;
	qb_settle_lazy();
}

hidden void qb_txn_abort(struct qb_txn *t)
{
	while (njournal) {
		struct undo *u = &journal[--njournal];
		if (u->kind == UNDO_BYTE)
			*(unsigned char *)u->addr = (unsigned char)u->old;
		else
			*(size_t *)u->addr = u->old;
	}
	current = 0;
	/* The TLS module list links through the objects: cut it first. */
	qb_tls_rollback(t->tls_cnt, t->tls_offset, t->tls_align);
	/* Newest first: an object goes before what it depends on. */
	while (qb.tail != t->old_tail && !qb.tail->is_ldso && !qb.tail->is_main)
		qb_forget_object(qb.tail);
	qb_unmap_flush();
	qb_ext_scope_changed();
}

/* Memory the loader allocates on behalf of p (TLS descriptor arguments)
 * lives as long as p: a header links it to p->owned. */
hidden void *qb_owned_alloc(struct dso *p, size_t size)
{
	void **m = __libc_malloc(sizeof(void *) + size);
	if (!m)
		return 0;
	m[0] = p->owned;
	p->owned = m;
	return m + 1;
}

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
	qb_forget_lazy(p);
	qb_ext_released(p);
	for (void **m = p->owned, **next; m; m = next) {
		next = m[0];
		__libc_free(m);
	}
	if (p->map)
		unmap_later(p->map, p->map_len);
	if (p->phdr && !(p->map && (unsigned char *)p->phdr >= p->map &&
	    (unsigned char *)p->phdr < p->map + p->map_len))
		__libc_free(p->phdr);
	__libc_free(p->deps);
	__libc_free(p->scope);
	__libc_free(p->vdefs);
	__libc_free(p->vreqs);
	__libc_free(p->name);
	__libc_free((void *)p->shortname);
	__libc_free(p);
}

/* p leaves the loader: its destructors run (if its constructors did),
 * then nothing the loader keeps may point at it any more. */
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
		if (q->scope)
			for (size_t i = 0; i < q->nscope; i++)
				if (q->scope[i] == p) {
					__libc_free(q->scope);
					q->scope = 0;
					q->nscope = 0;
					break;
				}
	}
	free_dso(p);
}
