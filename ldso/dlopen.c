/* Loading at run time: dlopen and dlclose.
 *
 * dlclose, as musl's, drops the handle and nothing else: the object stays
 * loaded with its state, and its destructors run at exit. musl programs
 * may keep pointers into a plugin after dlclose (a pthread key
 * destructor, a signal handler, a callback), and no rule finds them all.
 * Unloading as glibc does (LD_DLCLOSE=unload) is an extension
 * (ldso/ext/unload.c); the registrations that keep an object loaded for
 * it pass through here.
 *
 * A dlopen is a transaction (txn.c): on failure the journal undoes what
 * it changed, and the objects it added leave through forget.c, as
 * unloaded ones do. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "ext/ext.h"

int __qb_musl_cxa_atexit(void (*)(void *), void *, void *) hidden;
int __qb_musl_atexit(void (*)(void)) hidden;
int __qb_musl_pthread_atfork(void (*)(void), void (*)(void), void (*)(void)) hidden;

/* The work of a dlopen that may fail, under qb_try. */
struct opening {
	const char *file;
	int mode;
	struct dso *old_tail, *p;
	struct dso **ctors;         /* to construct once the lock is released */
	size_t nctors;
};

static void open_work(void *arg)
{
	struct opening *o = arg;
	int mode = o->mode;
	if (mode & RTLD_NOLOAD) {
		o->p = qb_find_library(o->file);
		if (!o->p)
			qb_error("Library %s is not already loaded", o->file);
	} else {
		const char *why;
		/* As in musl, the search chain of a dlopen starts at the
		 * program, whoever calls it. */
		o->p = qb_load_library(o->file, qb.main, &why);
		if (!o->p)
			qb_error("Error loading shared library %s: %s", o->file, why);
	}
	struct dso *first_new = o->old_tail->next, *p = o->p;
	if (first_new) {
		qb_load_deps(first_new);
		for (struct dso *q = first_new; q; q = q->next) {
			q->runtime = 1;
			q->reloc_root = p;
			if ((q->dyn.flags_1 & DF_1_NODELETE) || q->tls.size)
				q->nodelete = 1;
		}
	}
	if (first_new || (mode & RTLD_GLOBAL)) {
		qb_build_scope(p);
		if (!p->scope)
			qb_error("Error loading shared library %s: out of memory", o->file);
	}
	if (mode & RTLD_GLOBAL) {
		for (size_t i = 0; i < p->nscope; i++)
			qb_global_join(p->scope[i]);
		qb_ext_scope_changed();
	}
	if (first_new) {
		uint64_t t0 = qb.debug & QB_DBG_STATS ? qb_now_ns() : 0;
		for (struct dso *q = qb.tail; q != o->old_tail; q = q->prev)
			qb_relocate(q, !!(mode & RTLD_LAZY));
		if (t0) {
			qb.stats.reloc_ns += qb_now_ns() - t0;
			qb_debug_stats("dlopen");
		}
	}
	if (mode & RTLD_GLOBAL)
		qb_retry_lazy();
	qb_ctor_queue(p, &o->ctors, &o->nctors);
	/* The last step that may fail: once every thread can reach the new
	 * TLS modules, the dlopen is done. */
	if (first_new && qb_tls_commit_runtime())
		qb_error("Error loading shared library %s: out of memory for TLS", o->file);
}

QB_PUBLIC void *dlopen(const char *file, int mode)
{
	if (!file)
		return qb.main;
	qb_lock();
	struct opening o = { file, mode, qb.tail, 0, 0, 0 };
	/* once exiting, its constructors would wait for ever: refused */
	const char *refused = qb.exiting ? "Cannot dlopen while program is exiting." :
		qb_txn_begin() ? "Cannot dlopen %s while relocating (from an IFUNC resolver)" : 0;
	if (refused) {
		qb_unlock();
		__dl_seterr(refused, file);
		return 0;
	}
	if (!(mode & RTLD_NOLOAD))
		qb_debug_change(1 /* RT_ADD */);
	int failed = qb_try(open_work, &o);
	if (failed) {
		qb_txn_abort();
		qb_forget_since(o.old_tail);
		/* qb.errbuf is shared: copy it to this thread's dlerror
		 * before another thread's failure can overwrite it. */
		__dl_seterr("%s", qb.errbuf);
	} else {
		qb_txn_commit();
		qb_drop_lazy(0);
		for (struct dso *q = o.old_tail->next; q; q = q->next) {
			qb_protect_relro(q);
			qb.adds++;
		}
		if (mode & RTLD_NODELETE)
			o.p->nodelete = 1;
		o.p->refcnt++;
	}
	if (!(mode & RTLD_NOLOAD))
		qb_debug_change(0 /* RT_CONSISTENT */);
	qb_unlock();
	/* outside the lock (initfini.c) */
	if (!failed)
		qb_run_ctors(o.ctors, o.nctors);
	qb_free(o.ctors);
	return failed ? 0 : o.p;
}

QB_PUBLIC int dlclose(void *h)
{
	qb_lock();
	struct dso *p = qb_valid_handle(h);
	/* musl: a handle stays valid for as long as its object is loaded */
	if (!p || (qb.unload && p->runtime && !p->refcnt)) {
		qb_unlock();
		__dl_seterr("Invalid library handle %p", h);
		return 1;
	}
	if (p->refcnt)
		p->refcnt--;
	qb_ext_closed();
	qb_unlock();
	return 0;
}

QB_PUBLIC int __cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
	qb_ext_registered((const void *)fn, arg, dso);
	return __qb_musl_cxa_atexit(fn, arg, dso);
}

QB_PUBLIC int atexit(void (*fn)(void))
{
	qb_ext_registered((const void *)fn, 0, 0);
	return __qb_musl_atexit(fn);
}

int __pthread_key_create(pthread_key_t *, void (*)(void *)) hidden;

/* A thread-specific value's destructor runs when a thread exits, after
 * any dlclose. */
QB_PUBLIC int pthread_key_create(pthread_key_t *k, void (*dtor)(void *))
{
	qb_ext_registered((const void *)dtor, 0, 0);
	return __pthread_key_create(k, dtor);
}

QB_PUBLIC int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	qb_ext_registered((const void *)prepare, (const void *)parent, (const void *)child);
	return __qb_musl_pthread_atfork(prepare, parent, child);
}
