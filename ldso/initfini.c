/* Constructors and destructors. Constructors run from the program's
 * __libc_start_main (through __libc_start_init), dependencies before the
 * objects that need them; destructors run in exactly the reverse order
 * from exit(), after the atexit handlers, as in musl. */
#include "ldso.h"

typedef void (*initfn)(int, char **, char **);

static struct dso *fini_head;  /* constructed objects, most recent first */
static struct dso *init_tail;
static int init_argc;
static char **init_argv, **init_envp;

hidden void qb_set_init_args(int argc, char **argv, char **envp)
{
	init_argc = argc;
	init_argv = argv;
	init_envp = envp;
}

/* Post-order walk of the dependency graph: an object is queued after all
 * of its dependencies. The mark field breaks cycles. */
static void visit(struct dso *p)
{
	if (p->mark)
		return;
	p->mark = 1;
	for (size_t i = 0; i < p->ndeps; i++)
		visit(p->deps[i]);
	p->init_next = 0;
	if (init_tail)
		init_tail->init_next = p;
	else
		qb.init_head = p;
	init_tail = p;
}

hidden void qb_queue_init(void)
{
	/* Preloaded objects and anything not reachable from the program
	 * (the loader itself when nothing names libc) are queued too. */
	for (struct dso *p = qb.head; p; p = p->next)
		if (p != qb.main && !p->needed_by)
			visit(p);
	visit(qb.main);
	for (struct dso *p = qb.head; p; p = p->next)
		visit(p);
}

/* A constructor or destructor must be code of its object: a damaged
 * table is reported, not jumped through. */
static void check_code(struct dso *p, size_t addr)
{
	if (addr < (size_t)p->base || !qb_in_code(p, addr - (size_t)p->base))
		qb_fatal("%s: initialization or termination function outside the code", p->name);
}

static void run_array(struct dso *p, size_t vaddr, size_t size)
{
	if (!vaddr)
		return;
	size_t *fn = qb_laddr(p, vaddr);
	for (size_t i = 0; i < size / sizeof *fn; i++)
		if (fn[i] && fn[i] != (size_t)-1) {
			check_code(p, fn[i]);
			((initfn)fn[i])(init_argc, init_argv, init_envp);
		}
}

static void construct(struct dso *p)
{
	if (p->constructed)
		return;
	p->constructed = 1;
	p->fini_next = fini_head;
	fini_head = p;
	if (p->is_ldso)
		return;
	if (p->dyn.have & QB_HAVE_INIT) {
		check_code(p, (size_t)p->base + p->dyn.init);
		((initfn)(p->base + p->dyn.init))(init_argc, init_argv, init_envp);
	}
	run_array(p, p->dyn.init_array, p->dyn.init_arraysz);
}

static void construct_tree(struct dso *p)
{
	if (p->mark || p->constructed)
		return;
	p->mark = 1;
	for (size_t i = 0; i < p->ndeps; i++)
		construct_tree(p->deps[i]);
	construct(p);
}

/* After dlopen: constructors of everything new under root, dependencies
 * first. */
hidden void qb_construct_new(struct dso *root)
{
	for (struct dso *p = qb.head; p; p = p->next)
		p->mark = 0;
	construct_tree(root);
}

static void fini_one(struct dso *p)
{
	if (p->is_ldso)
		return;
	if (p->dyn.fini_array) {
		size_t *fn = qb_laddr(p, p->dyn.fini_array);
		for (size_t i = p->dyn.fini_arraysz / sizeof *fn; i--;)
			if (fn[i] && fn[i] != (size_t)-1) {
				check_code(p, fn[i]);
				((void (*)(void))fn[i])();
			}
	}
	if (p->dyn.have & QB_HAVE_FINI) {
		check_code(p, (size_t)p->base + p->dyn.fini);
		((void (*)(void))(p->base + p->dyn.fini))();
	}
}

/* dlclose is unloading p: run its destructors now, not at exit. */
hidden void qb_run_fini(struct dso *p)
{
	if (!p->constructed)
		return;
	for (struct dso **pp = &fini_head; *pp; pp = &(*pp)->fini_next)
		if (*pp == p) {
			*pp = p->fini_next;
			break;
		}
	fini_one(p);
}

void __libc_start_init(void)
{
	struct dso *m = qb.main;
	if (m && !m->constructed)
		run_array(m, m->dyn.preinit_array, m->dyn.preinit_arraysz);
	for (struct dso *p = qb.init_head; p; p = p->init_next)
		construct(p);
}

void __libc_exit_fini(void)
{
	for (struct dso *p = fini_head; p; p = p->fini_next)
		fini_one(p);
}
