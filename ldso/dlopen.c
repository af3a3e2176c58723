/* Loading and unloading at run time: dlopen, dlclose and the lock that
 * keeps the object list consistent across threads and fork.
 *
 * Unloading: an object dlopen brought in is unloaded when no handle to it
 * is open and no loaded object depends on it, unless it is marked
 * no-delete. It is marked no-delete when it has TLS (threads may hold
 * pointers into its blocks), when code in it registered an exit handler,
 * when an object outside its dependency tree bound to one of its symbols,
 * or by RTLD_NODELETE / DF_1_NODELETE. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "ldso.h"

void __dl_seterr(const char *, ...) hidden;
int __qb_musl_cxa_atexit(void (*)(void *), void *, void *) hidden;
int __qb_musl_atexit(void (*)(void)) hidden;

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_t owner;
static int depth;

/* Recursive: constructors run by dlopen may call dlopen. */
hidden void qb_lock(void)
{
	pthread_t self = pthread_self();
	if (depth && pthread_equal(owner, self)) {
		depth++;
		return;
	}
	pthread_mutex_lock(&mtx);
	owner = self;
	depth = 1;
}

hidden void qb_unlock(void)
{
	if (--depth == 0)
		pthread_mutex_unlock(&mtx);
}

/* fork: hold the lock across it so the child never sees a half-updated
 * list; the child, the only thread left, starts with a fresh lock. */
void __ldso_atfork(int who)
{
	if (who < 0) {
		qb_lock();
	} else if (who == 0) {
		qb_unlock();
	} else {
		pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
		mtx = fresh;
		depth = 0;
	}
}

/* p and everything it depends on, breadth first: the scope of a handle. */
hidden void qb_build_scope(struct dso *p)
{
	if (p->scope)
		return;
	size_t cap = 8, n = 0;
	struct dso **v = __libc_malloc(cap * sizeof *v);
	if (!v)
		return;
	for (struct dso *q = qb.head; q; q = q->next)
		q->mark = 0;
	v[n++] = p;
	p->mark = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < v[i]->ndeps; k++) {
			struct dso *d = v[i]->deps[k];
			if (d->mark)
				continue;
			if (n == cap) {
				struct dso **nv = __libc_realloc(v, 2 * cap * sizeof *v);
				if (!nv) {
					__libc_free(v);
					return;
				}
				v = nv;
				cap *= 2;
			}
			d->mark = 1;
			v[n++] = d;
		}
	p->scope = v;
	p->nscope = n;
}

static void free_dso(struct dso *p)
{
	qb_forget_lazy(p);
	if (p->map)
		munmap(p->map, p->map_len);
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

static void unlink_dso(struct dso *p)
{
	if (p->prev)
		p->prev->next = p->next;
	if (p->next)
		p->next->prev = p->prev;
	if (qb.tail == p)
		qb.tail = p->prev;
	qb.ndso--;
}

/* Undo a dlopen that failed before any constructor ran. */
static void rollback(struct dso *old_tail, size_t tls_cnt, size_t tls_off, size_t tls_align)
{
	struct dso *p = old_tail->next;
	while (p) {
		struct dso *next = p->next;
		if (p->is_ldso) {
			p = next;
			continue;
		}
		unlink_dso(p);
		free_dso(p);
		p = next;
	}
	qb_tls_rollback(tls_cnt, tls_off, tls_align);
	for (struct dso *q = qb.head; q; q = q->next)
		if (q->scope && q->runtime && !q->refcnt) {
			__libc_free(q->scope);
			q->scope = 0;
		}
}

static void promote_global(struct dso *p)
{
	qb_build_scope(p);
	for (size_t i = 0; i < p->nscope; i++)
		p->scope[i]->global = 1;
}

QB_PUBLIC void *dlopen(const char *file, int mode)
{
	if (!file)
		return qb.main;
	qb_lock();
	struct dso *old_tail = qb.tail, *p = 0;
	size_t tls_cnt = qb.tls_cnt, tls_off = qb.tls_offset, tls_align = qb.tls_align;
	void *outer = qb.rt_jmp;
	jmp_buf jb;
	if (setjmp(jb)) {
		qb.rt_jmp = outer;
		rollback(old_tail, tls_cnt, tls_off, tls_align);
		/* qb.errbuf is shared: copy it to this thread's dlerror
		 * before another thread's failure can overwrite it. */
		__dl_seterr("%s", qb.errbuf);
		qb_unlock();
		return 0;
	}
	qb.rt_jmp = &jb;

	if (mode & RTLD_NOLOAD) {
		p = qb_find_loaded(file);
		if (!p) {
			qb.rt_jmp = outer;
			qb_unlock();
			__dl_seterr("Library %s is not already loaded", file);
			return 0;
		}
	} else {
		const char *why;
		/* As in musl, the search chain of a dlopen starts at the
		 * program, whoever calls it. */
		p = qb_load_library(file, qb.main, &why);
		if (!p)
			qb_error("Error loading shared library %s: %s", file, why);
	}
	struct dso *first_new = old_tail->next;
	if (first_new) {
		qb_debug_change(1 /* RT_ADD */);
		qb_load_deps(first_new);
		qb_build_scope(p);
		for (struct dso *q = first_new; q; q = q->next) {
			q->runtime = 1;
			q->reloc_root = p;
			if ((q->dyn.flags_1 & DF_1_NODELETE) || q->tls.size)
				q->nodelete = 1;
			qb.adds++;
		}
		if (mode & RTLD_GLOBAL) {
			promote_global(p);
			for (struct dso *q = first_new; q; q = q->next)
				if (q->interposer) {
					qb_interposers_build();
					break;
				}
		}
		uint64_t t0 = qb.debug & QB_DBG_STATS ? qb_now_ns() : 0;
		for (struct dso *q = qb.tail; q != old_tail; q = q->prev)
			qb_relocate(q, !!(mode & RTLD_LAZY));
		if (t0) {
			qb.stats.reloc_ns += qb_now_ns() - t0;
			qb_debug_stats("dlopen");
		}
		if (qb_tls_commit_runtime())
			qb_error("Error loading shared library %s: out of memory for TLS", file);
		for (struct dso *q = first_new; q; q = q->next)
			qb_protect_relro(q);
	} else if (mode & RTLD_GLOBAL) {
		promote_global(p);
	}
	if (mode & RTLD_GLOBAL)
		qb_retry_lazy();
	if (mode & RTLD_NODELETE)
		p->nodelete = 1;
	p->refcnt++;
	qb.rt_jmp = outer;
	if (first_new)
		qb_debug_change(0 /* RT_CONSISTENT */);
	qb_construct_new(p);
	qb_unlock();
	return p;
}

static int is_needed(struct dso *p)
{
	for (struct dso *q = qb.head; q; q = q->next)
		if (q != p)
			for (size_t i = 0; i < q->ndeps; i++)
				if (q->deps[i] == p)
					return 1;
	return 0;
}

static int collect(void)
{
	int freed = 0;
	for (struct dso *p = qb.head, *next; p; p = next) {
		next = p->next;
		if (!p->runtime || p->nodelete || p->refcnt || is_needed(p))
			continue;
		qb_run_fini(p);
		qb_debug_change(2 /* RT_DELETE */);
		unlink_dso(p);
		/* Objects relocated in p's scope outlive it: RTLD_NEXT and
		 * later lookups from them must not reach the freed p. */
		for (struct dso *q = qb.head; q; q = q->next)
			if (q->reloc_root == p)
				q->reloc_root = q;
		for (struct dso *q = qb.head; q; q = q->next)
			if (q->scope && q != p) {
				for (size_t i = 0; i < q->nscope; i++)
					if (q->scope[i] == p) {
						__libc_free(q->scope);
						q->scope = 0;
						break;
					}
			}
		free_dso(p);
		qb.subs++;
		freed = 1;
		qb_debug_change(0 /* RT_CONSISTENT */);
		next = qb.head;  /* its dependencies may be free now */
	}
	return freed;
}

QB_PUBLIC int dlclose(void *h)
{
	qb_lock();
	struct dso *p = qb_valid_handle(h);
	if (!p || (p->runtime && !p->refcnt)) {
		qb_unlock();
		__dl_seterr("Invalid library handle %p", h);
		return 1;
	}
	if (p->refcnt)
		p->refcnt--;
	collect();
	qb_unlock();
	return 0;
}

/* Exit handlers registered by a library's code would run after it was
 * unmapped: such a library is never unloaded. */
static void pin_code_of(const void *fn)
{
	qb_lock();
	struct dso *p = qb_dso_of_addr(fn);
	if (p)
		p->nodelete = 1;
	qb_unlock();
}

QB_PUBLIC int __cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
	pin_code_of((const void *)fn);
	return __qb_musl_cxa_atexit(fn, arg, dso);
}

QB_PUBLIC int atexit(void (*fn)(void))
{
	pin_code_of((const void *)fn);
	return __qb_musl_atexit(fn);
}
