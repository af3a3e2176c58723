/* Page policy, the "pages" extension (ext.h): which pages of an object
 * the loader asks the kernel for ahead of use (prefetch.c: the files
 * start-up reads, before it waits on any), and which it gives back once
 * relocation no longer needs them. Pages are not populated ahead of their
 * first touch: a read fault maps the cached pages around it as well, and
 * a page relocations write costs its copy either way, so the calls that
 * populate cost more than the faults they save. A page given back is a
 * clean copy of the file that a later read faults in again, unchanged.
 * Only objects the loader mapped itself. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "fast.h"

/* Once an object is relocated, its relocation tables are not read again
 * (a deferred PLT slot keeps its own copy of its entry) and its linkopt
 * tables only in rare cases (the interposer list rebuilt when it is an
 * interposer, a slow-path binding to one of its definitions): their pages
 * go back, so that the peak memory of a process does not carry them.
 * The pages are clean copies of the file (the loader never writes them),
 * so a later read faults them in again, unchanged. Only whole pages inside
 * a table, inside one loadable segment that is not writable (or, for
 * linkopt's segment, which is writable when it holds .dynamic, clear of
 * the dynamic section, RELRO and TLS) are released, and nothing of an
 * object with text relocations, whose pages the loader has written. */
/* Pages are given back in batches: on a virtual machine every TLB flush
 * traps to the hypervisor and costs the guest far more than the pages it
 * frees (docs/BENCHMARKS.md has the figures).
 * process_madvise on the process itself (PIDFD_SELF, recent Linux) takes
 * a batch's ranges in one call and flushes once; a kernel or qemu-user
 * without it gets one madvise a range. Start-up objects never go away, so
 * their ranges wait for a full batch or the program, relocated last; an
 * object dlopen brings in gives its own back at once. */
#define PIDFD_SELF_PROCESS (-10001)
#ifndef ZAP_MAX
#define ZAP_MAX 64
#endif
struct zap {
	struct iovec v[ZAP_MAX];
	unsigned n;
};
static int no_batch;

static void zap_flush(struct zap *z)
{
	if (!z->n)
		return;
#ifdef SYS_process_madvise
	if (!no_batch) {
		size_t want = 0;
		for (unsigned i = 0; i < z->n; i++)
			want += z->v[i].iov_len;
		long r = syscall(SYS_process_madvise, PIDFD_SELF_PROCESS, z->v, z->n, MADV_DONTNEED, 0);
		if (r >= 0 && (size_t)r == want) {
			z->n = 0;
			return;
		}
		/* not there, or stopped short: madvise each range (giving a
		 * page back twice is harmless) */
		if (r < 0)
			no_batch = 1;
	}
#endif
	for (unsigned i = 0; i < z->n; i++)
		madvise(z->v[i].iov_base, z->v[i].iov_len, MADV_DONTNEED);
	z->n = 0;
}

static void zap_add(struct zap *z, void *a, size_t len)
{
	if (z->n == ZAP_MAX)
		zap_flush(z);
	z->v[z->n].iov_base = a;
	z->v[z->n++].iov_len = len;
}

static int overlaps(size_t lo, size_t hi, size_t a, size_t len)
{
	return len && a < hi && lo < a + len;
}

static void release_pages(struct zap *z, struct dso *p, size_t vaddr, size_t len, int writable_ok)
{
	size_t page = __libc.page_size;
	if (!len || vaddr + len < vaddr)
		return;
	size_t lo = (vaddr + page - 1) & -page, hi = (vaddr + len) & -page;
	if (hi <= lo)
		return;
	int inside = 0;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type == PT_LOAD && lo >= ph->p_vaddr && hi <= ph->p_vaddr + ph->p_memsz &&
		    hi - ph->p_vaddr <= ph->p_filesz && (writable_ok || !(ph->p_flags & PF_W)))
			inside = 1;
		if ((ph->p_type == PT_DYNAMIC || ph->p_type == PT_GNU_RELRO || ph->p_type == PT_TLS) &&
		    overlaps(lo, hi, ph->p_vaddr & -page, ph->p_memsz + (ph->p_vaddr & (page - 1))))
			return;
	}
	for (unsigned i = 0; i < p->nwr && !writable_ok; i++)
		if (overlaps(lo, hi, p->wr_lo[i] & -page, p->wr_hi[i] - (p->wr_lo[i] & -page)))
			return;
	if (inside)
		zap_add(z, p->base + lo, hi - lo);
}

/* Gives back the pages of [lo, hi) (page-aligned, inside linkopt's
 * segment seg) that share no page with another segment, RELRO, TLS or,
 * in the program, .dynamic. Each kept range splits the span in two; the
 * recursion is at most as deep as there are program headers. */
static void release_span(struct zap *z, struct dso *p, const Phdr *seg, size_t lo, size_t hi)
{
	size_t page = __libc.page_size;
	for (size_t i = 0; i < p->phnum && lo < hi; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph == seg || !ph->p_memsz || (ph->p_type != PT_LOAD && ph->p_type != PT_GNU_RELRO &&
		    ph->p_type != PT_TLS && (ph->p_type != PT_DYNAMIC || !p->is_main)))
			continue;
		size_t a = ph->p_vaddr & -page, b = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		if (b <= lo || a >= hi)
			continue;
		if (a > lo)
			release_span(z, p, seg, lo, a);
		lo = b;
	}
	if (lo < hi)
		zap_add(z, p->base + lo, hi - lo);
}

/* All of linkopt's segment: its tables, the hash and symbol tables linkopt
 * moved there, a library's .dynamic (read when the object was loaded; a
 * later reader faults the file's bytes in again); its first page too, and
 * its last when no zeroed tail (p_memsz > p_filesz) made it the loader's.
 * Other segments' pages and the program's .dynamic are kept
 * (release_span). */
static void release_table_segment(struct zap *z, struct dso *p, const Phdr *seg)
{
	size_t page = __libc.page_size;
	size_t lo = seg->p_vaddr & -page, end = seg->p_vaddr + seg->p_filesz;
	size_t hi = seg->p_memsz == seg->p_filesz ? (end + page - 1) & -page : end & -page;
	release_span(z, p, seg, lo, hi);
}

static void release_tables(struct dso *p)
{
	/* a recording run keeps every page it read mapped, to the end */
	if (qb_recording() || p->is_ldso || (p->dyn.have & QB_HAVE_TEXTREL) || (p->dyn.flags & DF_TEXTREL))
		return;
	/* start-up objects stay: their ranges may wait for a fuller batch;
	 * the program is relocated last */
	static struct zap batch;
	struct zap local = { .n = 0 }, *z = p->runtime ? &local : &batch;
	release_pages(z, p, p->dyn.rela, p->dyn.relasz, 0);
	release_pages(z, p, p->dyn.rel, p->dyn.relsz, 0);
	release_pages(z, p, p->dyn.jmprel, p->dyn.pltrelsz, 0);
	if (fast_of(p)->tabseg) {
		release_table_segment(z, p, fast_of(p)->tabseg);
	} else {
		if (fast_of(p)->syminfo)
			release_pages(z, p, p->dyn.syminfo, p->nsyms * sizeof(Syminfo), 0);
		if (fast_of(p)->self_id || fast_of(p)->pre_gnu)
			release_pages(z, p, p->dyn.qb_table, p->dyn.qb_tablesz, 0);
	}
	if (z == &local || p == qb.main)
		zap_flush(z);
}

static void pages_file(struct dso *p, int fd, const struct stat *st)
{
	if (!p)
		qb_prefetch_opened(fd, st);
	else if (qb_recording())
		qb_record_mapped(p, fd);
}

static void pages_needed(struct dso *p, size_t idx, struct dso *dep)
{
	(void)p, (void)idx;
	qb_prefetch_loaded(dep);
}

hidden const struct qb_ext qb_ext_pages = {
	.name = "pages",
	.file = pages_file,
	.decoded = qb_prefetch_decoded,
	.needed = pages_needed,
	.relocated = release_tables,
};
