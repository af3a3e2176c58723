/* Unloading at dlclose, as glibc does: the "unload" extension (ext.h),
 * on with LD_DLCLOSE=unload (qb.unload).
 *
 * An object dlopen brought in is unloaded when no handle to it is open
 * and no loaded object depends on it, unless it is marked no-delete. It
 * is marked no-delete (kept for good) when something other than a handle
 * may still reach it: it has TLS (threads may hold pointers into its
 * blocks); an exit or fork handler or a thread-specific value's
 * destructor has its code, its argument or its __dso_handle in it; a
 * signal handler is installed in it; an object outside its dependency
 * tree bound to one of its symbols, by relocation or by dlsym through the
 * global scope; or by RTLD_NODELETE / DF_1_NODELETE. glibc runs exit and
 * fork handlers at dlclose instead (__cxa_finalize, atfork
 * unregistration); musl has neither and never unloads. A pointer the
 * program keeps in its own memory is invisible here: that is the limit
 * of unloading. */
#include <signal.h>
#include "ext.h"

static int is_needed(struct dso *p)
{
	for (struct dso *q = qb.head; q; q = q->next)
		if (q != p)
			for (size_t i = 0; i < q->ndeps; i++)
				if (q->deps[i] == p)
					return 1;
	return 0;
}

/* A signal handler may run at any time: an object that holds one stays
 * (the loader can ask the kernel; no such question finds a callback the
 * program keeps in its own memory). */
static int holds_handler(struct dso *p)
{
	for (int sig = 1; sig < _NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, 0, &sa))
			continue;
		const void *h = sa.sa_flags & SA_SIGINFO ? (const void *)sa.sa_sigaction :
			(const void *)sa.sa_handler;
		if (h != (const void *)SIG_DFL && h != (const void *)SIG_IGN && qb_dso_of_addr(h) == p)
			return 1;
	}
	return 0;
}

static void collect(void)
{
	if (!qb.unload)
		return;
	for (struct dso *p = qb.head, *next; p; p = next) {
		next = p->next;
		if (!p->runtime || p->nodelete || p->refcnt || p->unloading || is_needed(p))
			continue;
		if (holds_handler(p)) {
			p->nodelete = 1;
			continue;
		}
		qb_debug_change(2 /* RT_DELETE */);
		qb_forget_object(p);
		qb.subs++;
		qb_debug_change(0 /* RT_CONSISTENT */);
		next = qb.head;  /* its dependencies may be free now */
	}
	qb_unmap_flush();
}

/* def, a dlopened object, stays loaded for good: named by an exit or fork
 * handler (from == 0: such a handler runs after any dlclose), or bound by
 * a relocation or a dlsym of from through the global scope, unless def is
 * from itself or one of its dependencies (which from's DT_NEEDED keeps
 * loaded), as glibc keeps it for as long as from. */
static void pin(struct dso *from, struct dso *def)
{
	if (!qb.unload || !def->runtime || def->nodelete || def == from)
		return;
	if (from) {
		qb_build_scope(from);
		for (size_t i = 0; i < from->nscope; i++)
			if (from->scope[i] == def)
				return;
	}
	qb_txn_flag(&def->nodelete, 1);
}

hidden const struct qb_ext qb_ext_unload = {
	.name = "unload",
	.closed = collect,
	.pin = pin,
};

hidden void qb_ext_registered(const void *a, const void *b, const void *c)
{
	const void *v[] = { a, b, c };
	if (!qb.unload)
		return;
	qb_lock();
	for (int i = 0; i < 3; i++) {
		struct dso *p = v[i] ? qb_dso_of_addr(v[i]) : 0;
		if (p)
			qb_ext_pin(0, p);
	}
	qb_unlock();
}
