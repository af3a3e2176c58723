/* The layout facts of scripts/musl/facts, checked against a musl libc.a:
 * ./configure links this program statically with that libc.a, through
 * ldso/musl.h (the loader's own declarations, held to the facts by its
 * compile-time assertions) and runs it. Every field is read where musl's
 * start-up code has put a value this program can know independently (the
 * auxiliary vector, its own PT_TLS segment, the thread pointer), so a
 * field at another offset reads a wrong value. Each difference is one line
 * "FACT: expected ..., found ..."; the exit status is the number of them. */
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "musl.h"

extern uintptr_t __stack_chk_guard;

/* The program's TLS image: distinct bytes, so that a block copied from
 * somewhere else does not compare equal by chance. */
static _Thread_local unsigned char probe_tls[40] = {
	3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4,
	6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7,
};
static _Thread_local long probe_tbss[3];

static int bad;

static void fact(const char *what, uintptr_t want, uintptr_t got)
{
	if (want == got)
		return;
	printf("%s: expected %#lx, found %#lx\n", what, (unsigned long)want, (unsigned long)got);
	bad++;
}

static struct qb_pthread_head *thread_self(void)
{
	struct qb_pthread_head *td;
#if defined(__x86_64__)
	__asm__("mov %%fs:0,%0" : "=r"(td));
#elif defined(__i386__)
	__asm__("mov %%gs:0,%0" : "=r"(td));
#else
#error "x86_64 and i386 only"
#endif
	return td;
}

static const ElfW(Phdr) *tls_phdr(uintptr_t *base)
{
	const ElfW(Phdr) *ph = (const void *)getauxval(AT_PHDR), *tls = 0;
	size_t n = getauxval(AT_PHNUM);
	*base = 0;
	for (size_t i = 0; i < n; i++) {
		if (ph[i].p_type == PT_PHDR)
			*base = (uintptr_t)ph - ph[i].p_vaddr;
		if (ph[i].p_type == PT_TLS)
			tls = ph + i;
	}
	return tls;
}

/* The block of the program's TLS in a thread: variant II, below tp. */
static void check_thread(const char *who, struct qb_pthread_head *td, const struct qb_tls_module *m)
{
	char what[96];
	unsigned char *blk = (unsigned char *)td - m->offset;
	snprintf(what, sizeof what, "%s: pthread.self", who);
	fact(what, (uintptr_t)td, (uintptr_t)td->self);
	snprintf(what, sizeof what, "%s: pthread.dtv[0] (module count)", who);
	fact(what, 1, td->dtv[0]);
	snprintf(what, sizeof what, "%s: pthread.dtv[1] (the program's block)", who);
	fact(what, (uintptr_t)blk, td->dtv[1]);
	snprintf(what, sizeof what, "%s: pthread.canary", who);
	fact(what, __stack_chk_guard, td->canary);
	snprintf(what, sizeof what, "%s: pthread.sysinfo", who);
	fact(what, __sysinfo, td->sysinfo);
	snprintf(what, sizeof what, "%s: tls_module.image copied at tp - tls_module.offset", who);
	fact(what, 0, memcmp(blk, m->image, m->len) != 0);
	snprintf(what, sizeof what, "%s: a TLS variable inside the module's block", who);
	fact(what, 1, (unsigned char *)probe_tls >= blk && (unsigned char *)probe_tls < blk + m->size);
}

static int pipefd[2];
static struct qb_pthread_head *thread_td;

static void *thread_main(void *arg)
{
	(void)arg;
	char c;
	thread_td = thread_self();
	check_thread("second thread", thread_td, __libc.tls_head);
	(void)!read(pipefd[0], &c, 1);
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	char **e = envp;
	while (*e)
		e++;
	fact("libc.auxv", (uintptr_t)(e + 1), (uintptr_t)__libc.auxv);
	fact("libc.page_size", getauxval(AT_PAGESZ), __libc.page_size);
	fact("libc.secure", getauxval(AT_SECURE) != 0, __libc.secure);
	fact("libc.can_do_threads", 1, __libc.can_do_threads);
	fact("libc.threaded (one thread)", 0, __libc.threaded);
	fact("libc.threads_minus_1 (one thread)", 0, (uintptr_t)__libc.threads_minus_1);
	fact("libc.need_locks (one thread)", 0, (uintptr_t)__libc.need_locks);
	fact("__hwcap", getauxval(AT_HWCAP), __hwcap);
	probe_tbss[0] = probe_tls[0];

	uintptr_t base;
	const ElfW(Phdr) *tls = tls_phdr(&base);
	const struct qb_tls_module *m = __libc.tls_head;
	if (!tls || !m) {
		printf("libc.tls_head: expected the program's TLS module, found %p\n", (void *)m);
		return 1;
	}
	size_t align = tls->p_align > sizeof(void *) ? tls->p_align : sizeof(void *);
	size_t size = tls->p_memsz + ((-tls->p_memsz - (base + tls->p_vaddr)) & (tls->p_align - 1));
	fact("libc.tls_cnt", 1, __libc.tls_cnt);
	fact("tls_module.next", 0, (uintptr_t)m->next);
	fact("tls_module.image", base + tls->p_vaddr, (uintptr_t)m->image);
	fact("tls_module.len", tls->p_filesz, m->len);
	fact("tls_module.size", size, m->size);
	fact("tls_module.align", align, m->align);
	fact("tls_module.offset", size, m->offset);
	fact("libc.tls_align", align, __libc.tls_align);
	/* musl's static TLS size: dtv, descriptor, block, alignment slack */
	size_t w = sizeof(void *);
	fact("libc.tls_size (holds pthread.sizeof)",
	     (2 * w + QB_PTHREAD_SIZE + size + align + w - 1) & -w, __libc.tls_size);

	struct qb_pthread_head *td = thread_self();
	check_thread("main thread", td, m);
	fact("pthread.prev (one thread)", (uintptr_t)td, (uintptr_t)td->prev);
	fact("pthread.next (one thread)", (uintptr_t)td, (uintptr_t)td->next);

	pthread_t t;
	if (pipe(pipefd) || pthread_create(&t, 0, thread_main, 0)) {
		printf("probe: cannot start a thread\n");
		return 1;
	}
	while (!__atomic_load_n(&thread_td, __ATOMIC_ACQUIRE))
		sched_yield();
	fact("libc.threaded (two threads)", 1, __libc.threaded);
	fact("libc.threads_minus_1 (two threads)", 1, (uintptr_t)__libc.threads_minus_1);
	fact("libc.need_locks (two threads)", 1, (uintptr_t)__libc.need_locks);
	fact("pthread.next (two threads)", (uintptr_t)thread_td, (uintptr_t)td->next);
	fact("pthread.prev (two threads)", (uintptr_t)thread_td, (uintptr_t)td->prev);
	fact("pthread.next of the second thread", (uintptr_t)td, (uintptr_t)thread_td->next);
	(void)!write(pipefd[1], "x", 1);
	pthread_join(t, 0);
	return bad;
}
