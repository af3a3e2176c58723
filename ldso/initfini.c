/* Constructors and destructors. Constructors run from the program's
 * __libc_start_main (through __libc_start_init), dependencies before the
 * objects that need them; destructors run in exactly the reverse order
 * from exit(), after the atexit handlers, as in musl.
 *
 * A dlopen runs the constructors of what it loaded after it has released
 * the loader's lock, as musl does: a constructor may wait for a thread
 * that calls dlsym, dladdr, dl_iterate_phdr or dlopen. What the loader
 * lock no longer orders, init_lock does: each object is constructed once,
 * by the first thread to reach it (its ctor_visitor while it runs). A
 * thread that needs an object another is constructing waits for it, so
 * that dlopen never returns an object whose constructors have not
 * finished; the constructing thread itself goes on (a constructor that
 * dlopens its own object, or one that needs it). */
#include <pthread.h>
#include "ldso.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t init_cond = PTHREAD_COND_INITIALIZER;

/* ctor_visitor of an object whose constructing thread did not survive a
 * fork */
#define ORPHAN ((void *)-1)

typedef void (*initfn)(int, char **, char **);

static struct dso *fini_head;  /* constructed objects, most recent first */
static struct dso **init_queue; /* the start-up objects, dependencies first */
static size_t ninit;
static int init_argc;
static char **init_argv, **init_envp;

/* A constructor or destructor must be code of its object: a damaged
 * table is reported, not jumped through. Destructors take no arguments;
 * on x86 the caller's extra ones are harmless. */
static void call(struct dso *p, size_t addr)
{
	if (addr < (size_t)p->base || !qb_in_code(p, addr - (size_t)p->base))
		qb_fatal("%s: initialization or termination function outside the code", p->name);
	((initfn)addr)(init_argc, init_argv, init_envp);
}

/* An init array in order, or a fini array backwards; 0 and -1 are not
 * functions. */
static void run_array(struct dso *p, size_t vaddr, size_t size, int backwards)
{
	size_t *fn = vaddr ? qb_laddr(p, vaddr) : 0, n = vaddr ? size / sizeof *fn : 0;
	for (size_t i = 0; i < n; i++) {
		size_t f = fn[backwards ? n - 1 - i : i];
		if (f && f != (size_t)-1)
			call(p, f);
	}
}

static void construct(struct dso *p)
{
	void *self = (void *)pthread_self();
	pthread_mutex_lock(&init_lock);
	while ((p->ctor_visitor && p->ctor_visitor != self) || qb.exiting)
		pthread_cond_wait(&init_cond, &init_lock);
	if (p->ctor_visitor || p->constructed) {
		pthread_mutex_unlock(&init_lock);
		return;
	}
	p->ctor_visitor = self;
	p->fini_next = fini_head;
	fini_head = p;
	pthread_mutex_unlock(&init_lock);
	if (!p->is_ldso) {
		if (p->dyn.have & QB_HAVE_INIT)
			call(p, (size_t)p->base + p->dyn.init);
		run_array(p, p->dyn.init_array, p->dyn.init_arraysz, 0);
	}
	pthread_mutex_lock(&init_lock);
	p->ctor_visitor = 0;
	p->constructed = 1;
	pthread_cond_broadcast(&init_cond);
	pthread_mutex_unlock(&init_lock);
}

/* Post-order walk of the dependency graph: an object not constructed is
 * queued after all of its dependencies. The mark field breaks cycles. */
static void queue_tree(struct dso *p, struct dso **q, size_t *n)
{
	if (p->mark || p->constructed)
		return;
	p->mark = 1;
	for (size_t i = 0; i < p->ndeps; i++)
		queue_tree(p->deps[i], q, n);
	q[(*n)++] = p;
}

hidden void qb_queue_init(int argc, char **argv, char **envp)
{
	init_argc = argc;
	init_argv = argv;
	init_envp = envp;
	if (!(init_queue = qb_malloc(qb.ndso * sizeof *init_queue)))
		qb_error("%s: out of memory", QB_LDSO_NAME);
	/* Preloaded objects and anything not reachable from the program
	 * (the loader itself when nothing names libc) are queued too. */
	for (struct dso *p = qb.head; p; p = p->next)
		if (p != qb.main && !p->needed_by)
			queue_tree(p, init_queue, &ninit);
	queue_tree(qb.main, init_queue, &ninit);
	for (struct dso *p = qb.head; p; p = p->next)
		queue_tree(p, init_queue, &ninit);
}

/* Under the loader's lock, within the dlopen: the objects under root
 * whose constructors have not run, dependencies first (*q, allocated;
 * the caller frees it, also when this fails). */
hidden void qb_ctor_queue(struct dso *root, struct dso ***q, size_t *n)
{
	*n = 0;
	if (root->constructed)
		return;
	if (!(*q = qb_malloc(qb.ndso * sizeof **q)))
		qb_error("Error allocating constructor queue: out of memory");
	for (struct dso *p = qb.head; p; p = p->next)
		p->mark = 0;
	struct dso *orphan = 0;
	pthread_mutex_lock(&init_lock);
	queue_tree(root, *q, n);
	for (size_t i = 0; i < *n; i++)
		if ((*q)[i]->ctor_visitor == ORPHAN)
			orphan = (*q)[i];
	pthread_mutex_unlock(&init_lock);
	if (orphan)
		qb_error("State of %s is inconsistent due to multithreaded fork", orphan->name);
}

/* After the dlopen, without the loader's lock. Cancellation stays off
 * until they have run, as in musl: a thread cancelled in the middle would
 * leave its objects half constructed for good. */
hidden void qb_run_ctors(struct dso **q, size_t n)
{
	int cs;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	for (size_t i = 0; i < n; i++)
		construct(q[i]);
	pthread_setcancelstate(cs, 0);
}

/* fork: the loader lock and init_lock are held across it, so that the
 * child never sees a half-updated list; in the child, the only thread
 * left, both start afresh, and an object another thread was constructing
 * can never be finished. */
void __ldso_atfork(int who)
{
	if (who < 0) {
		qb_lock();
		pthread_mutex_lock(&init_lock);
	} else if (who == 0) {
		pthread_mutex_unlock(&init_lock);
		qb_unlock();
	} else {
		qb_lock_reset();
		init_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
		init_cond = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
		void *self = (void *)pthread_self();
		for (struct dso *p = qb.head; p; p = p->next)
			if (p->ctor_visitor && p->ctor_visitor != self)
				p->ctor_visitor = ORPHAN;
	}
}

static void fini_one(struct dso *p)
{
	if (p->is_ldso)
		return;
	run_array(p, p->dyn.fini_array, p->dyn.fini_arraysz, 1);
	if (p->dyn.have & QB_HAVE_FINI)
		call(p, (size_t)p->base + p->dyn.fini);
}

/* dlclose is unloading p: run its destructors now, not at exit. */
hidden void qb_run_fini(struct dso *p)
{
	if (!p->constructed)
		return;
	pthread_mutex_lock(&init_lock);
	for (struct dso **pp = &fini_head; *pp; pp = &(*pp)->fini_next)
		if (*pp == p) {
			*pp = p->fini_next;
			break;
		}
	pthread_mutex_unlock(&init_lock);
	fini_one(p);
}

void __libc_start_init(void)
{
	struct dso *m = qb.main;
	if (m && !m->constructed)
		run_array(m, m->dyn.preinit_array, m->dyn.preinit_arraysz, 0);
	for (size_t i = 0; i < ninit; i++)
		construct(init_queue[i]);
}

/* As musl: once qb.exiting is set no constructor starts (and dlopen fails);
 * the constructors other threads are running finish first; an object
 * whose constructor called exit is not destructed. */
void __libc_exit_fini(void)
{
	void *self = (void *)pthread_self();
	qb_lock();
	pthread_mutex_lock(&init_lock);
	qb.exiting = 1;
	qb_unlock();
	for (struct dso *p = fini_head; p; p = p->fini_next)
		while (p->ctor_visitor && p->ctor_visitor != self)
			pthread_cond_wait(&init_cond, &init_lock);
	pthread_mutex_unlock(&init_lock);
	for (struct dso *p = fini_head; p; p = p->fini_next)
		if (p->constructed)
			fini_one(p);
}
