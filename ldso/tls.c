/* Static TLS for the objects loaded at start-up (x86 variant II: blocks
 * below the thread pointer). Offsets are chosen as objects are registered;
 * musl's __copy_tls then lays out every thread's copy from the module list
 * and the sizes published in __libc. */
#include <string.h>
#include <sys/mman.h>
#include "ldso.h"

#define MIN_TLS_ALIGN sizeof(void *)

static _Alignas(64) unsigned char early_tls[1024];
static _Alignas(64) unsigned char builtin_tls[2048];

hidden void qb_tls_register(struct dso *p)
{
	if (!p->tls.size)
		return;
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
	else
		__libc.tls_head = m;
	qb.tls_tail = m;
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
}

/* musl's __libc_start_main calls this to set up a static program's TLS;
 * in a dynamic program the loader has already done it. */
hidden void __init_tls(size_t *aux)
{
	(void)aux;
}
