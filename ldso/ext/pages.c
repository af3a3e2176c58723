/* Page policy, the "pages" extension (ext.h): which pages of an object
 * the loader asks the kernel for ahead of use, and which it gives back
 * once relocation no longer needs them. Neither changes what a page
 * holds: populating maps the file's bytes (or a private copy of them, for
 * a page relocations are about to write) before the first touch would,
 * and a page given back is a clean copy of the file that a later read
 * faults in again, unchanged. Only objects the loader mapped itself. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "fast.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* [lo, hi), page-aligned, inside the file pages of a writable segment. */
static int in_writable_file(const struct dso *p, size_t lo, size_t hi, size_t page)
{
	for (size_t k = 0; k < p->phnum; k++) {
		const Phdr *l = &p->phdr[k];
		if (l->p_type == PT_LOAD && (l->p_flags & PF_W) && lo >= (l->p_vaddr & -page) &&
		    hi <= ((l->p_vaddr + l->p_filesz + page - 1) & -page) && hi > lo)
			return 1;
	}
	return 0;
}

/* The pages of one program header of type t, or an empty range. */
static void pages_of(const struct dso *p, unsigned t, size_t page, size_t *lo, size_t *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type == t && ph->p_memsz && ph->p_vaddr + ph->p_memsz > ph->p_vaddr) {
			*lo = ph->p_vaddr & -page;
			*hi = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
			return;
		}
	}
}

/* Pages that relocations are all but sure to write are copied in one
 * call each, ahead of them: a fault apiece costs more, and a page read
 * first (.dynamic often shares one with the GOT) and written later costs
 * two faults and a flush of the translation caches. Those of
 * PT_GNU_RELRO hold what the linker put there because relocations write
 * it (.data.rel.ro, .got, the init and fini arrays); the PLT's slots,
 * outside RELRO unless linked with -z now, are all bound at load. Before
 * decoding (after == 0) only when .dynamic, which decoding reads, shares
 * RELRO's pages; otherwise after, with the PLT's pages in the same call
 * when they follow. */
static void prefault_written(struct dso *p, size_t page, int after)
{
	size_t rlo, rhi, dlo, dhi;
	pages_of(p, PT_GNU_RELRO, page, &rlo, &rhi);
	if (!in_writable_file(p, rlo, rhi, page))
		rlo = rhi = 0;
	pages_of(p, PT_DYNAMIC, page, &dlo, &dhi);
	int early = rhi > rlo && dlo < rhi && dhi > rlo;
	if (!after) {
		if (early)
			madvise(p->base + rlo, rhi - rlo, MADV_POPULATE_WRITE);
		return;
	}
	const struct qb_dyninfo *d = &p->dyn;
	size_t ent = d->pltrel == DT_RELA ? sizeof(Rela) : sizeof(Rel);
	size_t plo = 0, phi = 0;
	if (d->jmprel && d->pltrelsz >= ent) {
		/* the slots lie in the order of the table */
		size_t a = ((const Rel *)qb_laddr(p, d->jmprel))->r_offset;
		size_t b = ((const Rel *)qb_laddr(p, d->jmprel + (d->pltrelsz / ent - 1) * ent))->r_offset;
		if (a > b) {
			size_t t = a;
			a = b;
			b = t;
		}
		if (b + sizeof(size_t) > b) {
			plo = a & -page;
			phi = (b + sizeof(size_t) + page - 1) & -page;
		}
		if (phi - plo > 64 * page || !in_writable_file(p, plo, phi, page))
			plo = phi = 0;
	}
	if (early && plo < rhi && phi > rlo) {
		/* RELRO's pages are done */
		plo = plo < rlo ? plo : rhi;
		if (phi <= plo)
			plo = phi = 0;
	} else if (!early && rhi > rlo && phi > plo && plo <= rhi && phi >= rlo) {
		/* one call for both */
		rlo = rlo < plo ? rlo : plo;
		rhi = rhi > phi ? rhi : phi;
		plo = phi = 0;
	}
	if (!early && rhi > rlo)
		madvise(p->base + rlo, rhi - rlo, MADV_POPULATE_WRITE);
	if (phi > plo)
		madvise(p->base + plo, phi - plo, MADV_POPULATE_WRITE);
}

/* Every relocation is read once, right after this, and with them the
 * symbol table, where binding reads the definition each reference names:
 * a fault costs far more than the pages it maps (in a virtual machine
 * above all, where one call maps a page for a small part of a fault's
 * cost), so each is mapped in one call. Only tables inside the read-only segment
 * holding the relocations: a page that relocations write is not read
 * first, and pages of another segment are left to faults. The string
 * table, most of which binding with hints never reads, stays out of it
 * (mapped, it would weigh on the peak memory of the process). */
static void populate_relocs(struct dso *p, size_t page)
{
	const struct qb_dyninfo *d = &p->dyn;
	size_t lo = (size_t)-1, hi = 0;
	const size_t t[][2] = { { d->rela, d->relasz }, { d->rel, d->relsz },
		{ d->jmprel, d->pltrelsz }, { d->relr, d->relrsz } };
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (t[i][0] && t[i][1]) {
			if (t[i][0] < lo)
				lo = t[i][0];
			if (t[i][0] + t[i][1] > hi)
				hi = t[i][0] + t[i][1];
		}
	const Phdr *seg = 0;
	for (size_t i = 0; i < p->phnum && hi > lo; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W) && lo >= ph->p_vaddr &&
		    hi - ph->p_vaddr <= ph->p_filesz)
			seg = ph;
	}
	if (!seg)
		return;
	lo &= -page;
	hi = (hi + page - 1) & -page;
	if (hi - lo > page)
		madvise(p->base + lo, hi - lo, MADV_POPULATE_READ);
	if (!p->syms)
		return;
	size_t s = (size_t)((unsigned char *)p->syms - p->base), n = p->nsyms * sizeof(Sym);
	if (s < seg->p_vaddr || n <= page || s + n < s || s + n - seg->p_vaddr > seg->p_filesz)
		return;
	size_t slo = s & -page, shi = (s + n + page - 1) & -page;
	/* what the first call mapped is left out */
	if (slo < lo && shi > lo)
		shi = lo;
	else if (slo < hi && shi > hi)
		slo = hi;
	else if (slo >= lo && shi <= hi)
		return;
	if (shi > slo)
		madvise(p->base + slo, shi - slo, MADV_POPULATE_READ);
}

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
	if (FX(p)->tabseg) {
		release_table_segment(z, p, FX(p)->tabseg);
	} else {
		if (FX(p)->syminfo)
			release_pages(z, p, p->dyn.syminfo, p->nsyms * sizeof(Syminfo), 0);
		if (FX(p)->self_id || FX(p)->pre_gnu)
			release_pages(z, p, p->dyn.qb_table, p->dyn.qb_tablesz, 0);
	}
	if (z == &local || p == qb.main)
		zap_flush(z);
}

static void pages_mapped(struct dso *p, int fd)
{
	if (qb_recording())
		qb_record_mapped(p, fd);
	prefault_written(p, __libc.page_size, 0);
}

static void pages_decoded(struct dso *p)
{
	qb_prefetch_decoded(p);
	if (!p->map)
		return;
	/* first: prefault_written reads the PLT's relocations */
	populate_relocs(p, __libc.page_size);
	prefault_written(p, __libc.page_size, 1);
}

static void pages_needed(struct dso *p, size_t idx, struct dso *dep)
{
	(void)p, (void)idx;
	qb_prefetch_loaded(dep);
}

hidden const struct qb_ext qb_ext_pages = {
	.name = "pages",
	.mapped = pages_mapped,
	.decoded = pages_decoded,
	.needed = pages_needed,
	.relocated = release_tables,
};
