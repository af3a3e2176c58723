/* TLS (x86 variant II: blocks below the thread pointer). Every module gets
 * an id and an offset in the static area as it is registered; musl's
 * __copy_tls lays out each new thread's copy from the module list and the
 * sizes published in __libc. Modules that dlopen adds after threads exist
 * get, in every existing thread, a separately allocated block reached
 * through a new dtv. */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include "ldso.h"

#if QB_TLS_VARIANT != 2
#error "tls.c lays out TLS variant II only (blocks below the thread pointer)"
#endif

#define MIN_TLS_ALIGN sizeof(void *)

void __block_app_sigs(void *) hidden;
void __restore_sigs(void *) hidden;
void __inhibit_ptc(void) hidden;
void __release_ptc(void) hidden;

static _Alignas(64) unsigned char early_tls[1024];
static _Alignas(64) unsigned char builtin_tls[2048];

/* The last module, and the layout, that every thread has; modules after
 * committed_tail belong to a dlopen still under way. */
static struct qb_tls_module *committed_tail;
static size_t committed_cnt, committed_offset, committed_align;

/* Once threads can exist, a module registered by dlopen is on the list
 * __copy_tls walks before its image is relocated and before the sizes
 * account for it: pthread_create waits from the first such registration
 * until the dlopen commits or rolls back. */
static int started, ptc_held;

hidden void qb_tls_register(struct dso *p)
{
	if (!p->tls.size)
		return;
	if (started && !ptc_held) {
		__inhibit_ptc();
		ptc_held = 1;
	}
	struct qb_tls_module *m = &p->tls;
	size_t align = m->align, image = (size_t)m->image - (size_t)p->base;
	/* Block start (tp - offset) must share the image's address modulo
	 * its alignment; tp itself is aligned to the largest alignment. */
	size_t off = qb.tls_offset + m->size;
	off += (0 - (image + off)) & (align - 1);
	m->offset = off;
	qb.tls_offset = off;
	if (align > qb.tls_align)
		qb.tls_align = align;
	p->tls_id = ++qb.tls_cnt;
	m->next = 0;
	if (qb.tls_tail)
		qb.tls_tail->next = m;
	qb.tls_tail = m;
	if (!committed_tail && !__libc.tls_head)
		__libc.tls_head = m;
}

static void release_ptc(void)
{
	if (ptc_held) {
		ptc_held = 0;
		__release_ptc();
	}
}

/* Forget modules registered by a dlopen that failed. */
hidden void qb_tls_rollback(void)
{
	qb.tls_cnt = committed_cnt;
	qb.tls_offset = committed_offset;
	qb.tls_align = committed_align;
	qb.tls_tail = committed_tail;
	if (committed_tail)
		committed_tail->next = 0;
	else
		__libc.tls_head = 0;
	release_ptc();
}

static void publish_sizes(void)
{
	size_t align = qb.tls_align > MIN_TLS_ALIGN ? qb.tls_align : MIN_TLS_ALIGN;
	__libc.tls_cnt = qb.tls_cnt;
	__libc.tls_align = align;
	/* dtv, the blocks, the thread descriptor, and room to align both
	 * the descriptor and the start of the area. */
	size_t sz = (qb.tls_cnt + 1) * sizeof(void *) + qb.tls_offset + QB_PTHREAD_SIZE + 2 * align;
	__libc.tls_size = (sz + align - 1) & -align;
	committed_tail = qb.tls_tail;
	committed_cnt = qb.tls_cnt;
	committed_offset = qb.tls_offset;
	committed_align = qb.tls_align;
}

/* Give the current thread a thread pointer over TLS for every module
 * registered so far. Called first with no modules (so that libc can run
 * while the loader works) and again once all start-up objects are in. */
hidden void qb_tls_install(int early)
{
	publish_sizes();
	unsigned char *mem = early ? early_tls : builtin_tls;
	if (early && __libc.tls_size > sizeof early_tls)
		qb_fatal("%s: early TLS does not fit", QB_LDSO_NAME);
	if (!early && __libc.tls_size > sizeof builtin_tls) {
		mem = mmap(0, __libc.tls_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			qb_fatal("%s: cannot allocate TLS", QB_LDSO_NAME);
	}
	if (__init_tp(__copy_tls(mem)) < 0)
		qb_fatal("%s: cannot set the thread pointer", QB_LDSO_NAME);
	started = !early;
}

/* The main thread's blocks were laid out before relocation (so that IFUNC
 * resolvers run with TLS), from images that relocations may still change
 * (a .tdata pointer needs its RELATIVE or symbolic relocation): once every
 * start-up object is relocated, start the blocks again from the final
 * images. Threads created later copy the relocated images themselves. */
hidden void qb_tls_init_main(void)
{
	for (struct dso *p = qb.head; p; p = p->next) {
		if (!p->tls_id || p->tls_id > qb.static_tls_cnt)
			continue;
		unsigned char *blk = qb_tls_block(p);
		memcpy(blk, p->tls.image, p->tls.len);
		memset(blk + p->tls.len, 0, p->tls.size - p->tls.len);
	}
}

/* Memory for one thread: the new dtv, then each new module's block. */
static size_t per_thread_size(void)
{
	size_t sz = (qb.tls_cnt + 1) * sizeof(void *);
	for (struct qb_tls_module *m = committed_tail ? committed_tail->next : __libc.tls_head; m; m = m->next)
		sz += m->size + m->align;
	return sz;
}

static size_t count_threads(struct qb_pthread_head *self)
{
	size_t n = 1;
	for (struct qb_pthread_head *td = self->next; td != self; td = td->next)
		n++;
	return n;
}

static void fill_thread(unsigned char *mem, struct qb_pthread_head *td)
{
	uintptr_t *dtv = (uintptr_t *)mem, *old = td->dtv;
	memcpy(dtv, old, (old[0] + 1) * sizeof *dtv);
	unsigned char *blk = mem + (qb.tls_cnt + 1) * sizeof *dtv;
	size_t i = committed_cnt + 1;
	for (struct qb_tls_module *m = committed_tail ? committed_tail->next : __libc.tls_head;
	     m; m = m->next, i++) {
		blk += (0 - (size_t)blk) & (m->align - 1);
		memcpy(blk, m->image, m->len);
		memset(blk + m->len, 0, m->size - m->len);
		dtv[i] = (uintptr_t)blk + QB_DTP_OFFSET;
		blk += m->size;
	}
	dtv[0] = qb.tls_cnt;
	td->dtv = dtv;
}

/* Make modules registered since the last commit usable in every thread:
 * threads created from now on get them from __copy_tls; threads that
 * already exist get separate blocks. Returns -1 when out of memory. */
hidden int qb_tls_commit_runtime(void)
{
	if (qb.tls_cnt == committed_cnt)
		return 0;
	size_t each = per_thread_size(), n;
	struct qb_pthread_head *self = qb_thread_self(), *td = self;
	unsigned char *mem;
	sigset_t set;
	for (;;) {
		__block_app_sigs(&set);
		__tl_lock();
		n = count_threads(self);
		__tl_unlock();
		__restore_sigs(&set);

		if (!(mem = qb_calloc(n, each + 16)))
			return -1;
		__block_app_sigs(&set);
		__tl_lock();
		if (count_threads(self) == n)
			break;
		/* Threads came or went meanwhile: count again. */
		__tl_unlock();
		__restore_sigs(&set);
		qb_free(mem);
	}
	for (size_t k = 0; k < n; k++, td = td->next) {
		unsigned char *m = mem + k * (each + 16);
		fill_thread(m + ((0 - (size_t)m) & 15), td);
	}
	publish_sizes();
	__tl_unlock();
	__restore_sigs(&set);
	release_ptc();
	return 0;
}

/* The calling thread's block of p's TLS. */
hidden void *qb_tls_block(struct dso *p)
{
	struct qb_pthread_head *td = qb_thread_self();
	return p->tls_id ? (void *)(td->dtv[p->tls_id] - QB_DTP_OFFSET) : 0;
}

/* musl's __libc_start_main calls this to set up a static program's TLS;
 * in a dynamic program the loader has already done it. */
hidden void __init_tls(size_t *aux)
{
	(void)aux;
}
