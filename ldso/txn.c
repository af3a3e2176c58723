/* dlopen as a transaction. What a dlopen changes is: objects appended to
 * the list with their TLS modules (the dlopen keeps where the list ended,
 * tls.c the layout every thread has; the objects leave by qb_forget_since,
 * their modules by qb_tls_rollback); a byte or a word of what was already
 * loaded (a promotion, a pin, a deferred PLT slot bound), journalled
 * before it changes and restored by qb_txn_abort; state derived from
 * those, recomputed from them. */
#include "ldso.h"

enum { UNDO_BYTE, UNDO_WORD };

struct undo {
	unsigned char kind;
	void *addr;
	size_t old;
};

static struct undo *journal;
static size_t njournal, capjournal;
static int current;         /* a transaction is under way */

/* Room for one more entry, before the change it records is made: out of
 * memory fails the transaction with nothing changed. */
static void record(unsigned char kind, void *addr, size_t old)
{
	struct undo *n = qb_grow(journal, &capjournal, njournal, sizeof *n);
	if (!n)
		qb_error("%s: out of memory in dlopen", QB_LDSO_NAME);
	journal = n;
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
hidden int qb_txn_begin(void)
{
	if (current)
		return -1;
	current = 1;
	return 0;
}

hidden void qb_txn_commit(void)
{
	current = 0;
	njournal = 0;
}

hidden void qb_txn_abort(void)
{
	while (njournal) {
		struct undo *u = &journal[--njournal];
		if (u->kind == UNDO_BYTE)
			*(unsigned char *)u->addr = (unsigned char)u->old;
		else
			*(size_t *)u->addr = u->old;
	}
	current = 0;
	/* The TLS module list links through the objects: cut it before
	 * they go (qb_forget_since). */
	qb_tls_rollback();
}
