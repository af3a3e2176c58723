/* The reopen cache: a library that dlclose unloads leaves its image
 * mapped ("parked"), so that a program that loads the same file again
 * (plug-in hosts, test drivers, dlopen/dlclose loops) skips mapping it,
 * and, when the reload binds exactly as the load before, skips relocating
 * it too.
 *
 * What a reload sees is what a fresh load gives, byte for byte:
 *  - The image is taken only for the same file (device, inode, size,
 *    modification and change times).
 *  - Relocation is skipped ("settled") only when the binding memo is
 *    reused (bindmemo.c: the same files searched in the same order with
 *    the same switches, so every lookup gives the same answer) and every
 *    object searched, the library itself included, sits at the address it
 *    had when the image was relocated: every relocated word is then what
 *    relocating it again would write. Objects whose relocation ran code or
 *    depended on more than that (IFUNC and IRELATIVE, TLS, copy
 *    relocations, deferred lazy slots, text relocations) are never parked.
 *  - The writable bytes outside RELRO are restored from a snapshot taken
 *    right after relocation, before any constructor ran, and the bss is
 *    cleared; RELRO, read-only since that load, holds what relocation
 *    wrote. Constructors then run again, as on a fresh load.
 *  - Otherwise the writable segments are mapped again from the file and
 *    relocation runs as usual.
 * The price: after dlclose, the pages of a parked image stay mapped
 * (musl's loader never unmaps anything). At most KEEP_MAX images and
 * KEEP_SPAN bytes of address space are kept, oldest unmapped first;
 * LD_NOREOPEN=1 unmaps at dlclose, as glibc does. */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ldso.h"

#define KEEP_MAX 8
#define KEEP_SPAN ((size_t)64 << 20)
#define MAX_SPANS 8

struct span {
	size_t lo, hi;          /* link-time addresses */
};

struct qb_image {
	struct qb_image *next;  /* parked images, oldest first */
	unsigned char *map;
	size_t map_len;
	Phdr *phdr;             /* inside map, or the loader's own copy */
	size_t phnum;
	struct qb_fileid id;    /* of its file */
	int valid;              /* the snapshot is of the image as relocated */
	unsigned serial;        /* the memo it was relocated with */
	uintptr_t *bases;       /* of the objects that memo searched */
	size_t nbases;
	struct span data[MAX_SPANS], zero[MAX_SPANS];
	unsigned ndata, nzero;
	size_t *snap;           /* the data spans' words, one after the other */
	size_t snap_words;
};

static struct qb_image *parked;
static size_t nparked, parked_span;

static int phdr_in_map(const struct qb_image *m)
{
	return (unsigned char *)m->phdr >= m->map && (unsigned char *)m->phdr < m->map + m->map_len;
}

static void image_free(struct qb_image *m)
{
	if (!m)
		return;
	if (m->map) {
		if (!phdr_in_map(m))
			__libc_free(m->phdr);
		munmap(m->map, m->map_len);
	}
	__libc_free(m->bases);
	__libc_free(m->snap);
	__libc_free(m);
}

hidden size_t qb_reopen_parked(void)
{
	return nparked;
}

/* Where the parked image of the file st describes is linked (0: none). */
static struct qb_image **find(const struct stat *st)
{
	struct qb_fileid id;
	qb_fileid_of(st, &id);
	for (struct qb_image **pp = &parked; *pp; pp = &(*pp)->next)
		if (qb_fileid_eq(&(*pp)->id, &id))
			return pp;
	return 0;
}

/* Is an image of the file st describes parked? */
hidden int qb_reopen_have(const struct stat *st)
{
	return find(st) != 0;
}

/* The parked image of the file st describes, taken out of the cache. */
hidden struct qb_image *qb_reopen_take(const struct stat *st)
{
	struct qb_image **pp = find(st);
	if (!pp)
		return 0;
	struct qb_image *m = *pp;
	*pp = m->next;
	m->next = 0;
	nparked--;
	parked_span -= m->map_len;
	return m;
}

/* p takes over m's mapping; the file stays open on fd (or, when the
 * search only looked at it, fd < 0) until relocation decides between the
 * snapshot and the file. */
hidden void qb_reopen_adopt(struct dso *p, struct qb_image *m, int fd)
{
	p->map = m->map;
	p->map_len = m->map_len;
	p->phdr = m->phdr;
	p->phnum = m->phnum;
	p->phentsize = sizeof(Phdr);
	m->map = 0;
	m->phdr = 0;
	p->image = m;
	p->pending = 1;
	p->reuse_fd = fd;
	/* its pages are in memory already */
	p->prefaulted = 1;
	qb.stats.reopened++;
}

/* Can p's relocation be skipped? serial names the memo reused, objs the
 * objects it searches. */
hidden int qb_reopen_fits(const struct dso *p, unsigned serial, struct dso *const *objs, size_t n)
{
	const struct qb_image *m = p->image;
	/* LD_DIRECT_VERIFY checks every binding: nothing is skipped */
	if (!p->pending || !m || !m->valid || m->serial != serial || m->nbases != n || qb.verify)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (m->bases[i] != (uintptr_t)objs[i]->base)
			return 0;
	return 1;
}

/* Word by word, page by page: a page the program never wrote is only
 * read, and stays shared with the others that read it. */
static void restore_words(size_t *at, const size_t *from, size_t n, size_t page_words)
{
	while (n) {
		size_t k = page_words - ((uintptr_t)at / sizeof(size_t)) % page_words;
		if (k > n)
			k = n;
		for (size_t i = 0; i < k; i++)
			if (at[i] != from[i]) {
				for (; i < k; i++)
					at[i] = from[i];
				break;
			}
		at += k;
		from += k;
		n -= k;
	}
}

static void zero_words(size_t *at, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (at[i])
			at[i] = 0;
}

/* [a, b), whole pages of anonymous memory: pages in memory are cleared
 * where they are not zero; the others (never touched, or swapped out) are
 * dropped, which leaves them zero. */
static void zero_pages(unsigned char *a, unsigned char *b, size_t page)
{
	unsigned char vec[256];
	while (a < b) {
		size_t n = (size_t)(b - a) / page;
		if (n > sizeof vec)
			n = sizeof vec;
		if (mincore(a, n * page, vec)) {
			madvise(a, n * page, MADV_DONTNEED);
			a += n * page;
			continue;
		}
		for (size_t i = 0; i < n;) {
			if (vec[i] & 1) {
				zero_words((size_t *)(a + i * page), page / sizeof(size_t));
				i++;
				continue;
			}
			size_t k = i;
			while (k < n && !(vec[k] & 1))
				k++;
			madvise(a + i * page, (k - i) * page, MADV_DONTNEED);
			i = k;
		}
		a += n * page;
	}
}

static void restore(struct dso *p)
{
	const struct qb_image *m = p->image;
	size_t page = __libc.page_size;
	const size_t *s = m->snap;
	for (unsigned i = 0; i < m->ndata; i++) {
		size_t n = (m->data[i].hi - m->data[i].lo) / sizeof(size_t);
		restore_words((size_t *)(p->base + m->data[i].lo), s, n, page / sizeof(size_t));
		s += n;
	}
	for (unsigned i = 0; i < m->nzero; i++) {
		unsigned char *a = p->base + m->zero[i].lo, *b = p->base + m->zero[i].hi;
		unsigned char *first = (unsigned char *)(((uintptr_t)a + page - 1) & -page);
		if (first > b)
			first = b;
		zero_words((size_t *)a, (size_t)(first - a) / sizeof(size_t));
		zero_pages(first, b, page);
	}
}

/* The file of a taken image that the search did not open: opened now,
 * and still that file (-1 otherwise). */
static int open_same(const struct dso *p)
{
	struct stat st;
	struct qb_fileid id;
	int fd = openat(AT_FDCWD, p->name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (qb_fileid_of(&st, &id), !qb_fileid_eq(&id, &p->id))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Before p's relocation, for an image taken from the cache: settle it
 * from the snapshot when fits (1), or map its writable segments again
 * from the file for a relocation as usual (0). */
hidden int qb_reopen_settle(struct dso *p, int fits)
{
	struct qb_image *m = p->image;
	int fd = p->reuse_fd;
	p->reuse_fd = -1;
	p->pending = 0;
	if (fits) {
		restore(p);
		if (fd >= 0)
			close(fd);
		p->settled = 1;
		qb.stats.reopen_settled++;
		return 1;
	}
	if (m)
		m->valid = 0;
	if (fd < 0)
		fd = open_same(p);
	const char *why = fd < 0 ? "file changed while loading" : qb_map_writable(p, fd);
	if (fd >= 0)
		close(fd);
	if (why)
		qb_error("Error loading shared library %s: %s", p->name, why);
	return 0;
}

/* The spans a snapshot covers: each writable segment's file bytes outside
 * RELRO (rounded out to words: the bytes added are the same segment's)
 * and its bss, but not linkopt's segment, which relocations never write. */
static int plan(struct dso *p, struct qb_image *m)
{
	size_t w = sizeof(size_t), page = __libc.page_size;
	m->ndata = m->nzero = 0;
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph == p->tabseg)
			continue;
		size_t lo = ph->p_vaddr & -w, fend = ph->p_vaddr + ph->p_filesz;
		size_t hi = (fend + w - 1) & -w, mend = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		struct span part[2] = { { lo, hi }, { 0, 0 } };
		if (p->relro_end > p->relro_start && p->relro_start < hi && p->relro_end > lo) {
			part[1] = (struct span){ p->relro_end > lo ? p->relro_end : lo, hi };
			part[0].hi = p->relro_start > lo ? p->relro_start : lo;
		}
		for (int k = 0; k < 2; k++)
			if (part[k].hi > part[k].lo) {
				if (m->ndata == MAX_SPANS)
					return 0;
				m->data[m->ndata++] = part[k];
			}
		if (ph->p_memsz > ph->p_filesz && mend > hi) {
			/* (RELRO over the bss: nothing could clear it) */
			if (m->nzero == MAX_SPANS || (p->relro_end > hi && p->relro_start < mend))
				return 0;
			m->zero[m->nzero++] = (struct span){ hi, mend };
		}
	}
	return 1;
}

/* After p's relocation (by dlopen, before its constructors): the snapshot
 * a later reload restores. */
hidden void qb_reopen_snapshot(struct dso *p, unsigned serial, struct dso *const *objs, size_t n)
{
	struct qb_image *m = p->image;
	if (qb.no_reopen || !p->map)
		return;
	if (!m && !(m = p->image = __libc_calloc(1, sizeof *m)))
		return;
	m->valid = 0;
	if (m->nbases != n) {
		__libc_free(m->bases);
		m->nbases = 0;
		if (!(m->bases = __libc_malloc((n ? n : 1) * sizeof *m->bases)))
			return;
		m->nbases = n;
	}
	for (size_t i = 0; i < n; i++)
		m->bases[i] = (uintptr_t)objs[i]->base;
	m->serial = serial;
	if (!plan(p, m))
		return;
	size_t words = 0;
	for (unsigned i = 0; i < m->ndata; i++)
		words += (m->data[i].hi - m->data[i].lo) / sizeof(size_t);
	if (words != m->snap_words) {
		__libc_free(m->snap);
		m->snap_words = 0;
		if (!(m->snap = __libc_malloc((words ? words : 1) * sizeof(size_t))))
			return;
		m->snap_words = words;
	}
	size_t *s = m->snap;
	for (unsigned i = 0; i < m->ndata; i++) {
		size_t k = (m->data[i].hi - m->data[i].lo) / sizeof(size_t);
		const size_t *from = (const size_t *)(p->base + m->data[i].lo);
		for (size_t j = 0; j < k; j++)
			s[j] = from[j];
		s += k;
	}
	m->valid = 1;
}

/* An image no object took after all. */
hidden void qb_reopen_discard(struct qb_image *m)
{
	image_free(m);
}

/* p's snapshot, and the file a taken image kept open, let go. */
hidden void qb_reopen_drop(struct dso *p)
{
	image_free(p->image);
	p->image = 0;
	if (p->pending && p->reuse_fd >= 0)
		close(p->reuse_fd);
	p->reuse_fd = -1;
}

/* p leaves the loader: park its image (1: the caller must neither unmap
 * it nor free its program headers) or let it go (0). */
hidden int qb_reopen_park(struct dso *p)
{
	struct qb_image *m = p->image;
	if (!m || !m->valid || qb.no_reopen || !p->map || p->map_len > KEEP_SPAN) {
		qb_reopen_drop(p);
		return 0;
	}
	p->image = 0;
	if (p->pending && p->reuse_fd >= 0)
		close(p->reuse_fd);
	p->reuse_fd = -1;
	while (parked && (nparked >= KEEP_MAX || parked_span + p->map_len > KEEP_SPAN)) {
		struct qb_image *old = parked;
		parked = old->next;
		nparked--;
		parked_span -= old->map_len;
		image_free(old);
	}
	m->map = p->map;
	m->map_len = p->map_len;
	m->phdr = p->phdr;
	m->phnum = p->phnum;
	m->id = p->id;
	struct qb_image **pp = &parked;
	while (*pp)
		pp = &(*pp)->next;
	*pp = m;
	nparked++;
	parked_span += m->map_len;
	p->map = 0;
	p->phdr = 0;
	return 1;
}

/* The address space parked images hold. */
hidden size_t qb_reopen_bytes(void)
{
	return parked_span;
}
