/* Mapping an ELF object from a file descriptor: validate the headers
 * (read with the ELF header in one pread), map the whole address range
 * once, give each PT_LOAD its own protections, and clear the bss. Each
 * system call that changes a mapping costs, the more so in a virtual
 * machine: the fewer, the better. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ext/ext.h"

#define MAX_PHDR_BYTES 65536

static const char *check_ehdr(const Ehdr *eh, size_t got, int allow_exec)
{
	if (got < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return "not an ELF file";
	if (eh->e_ident[EI_CLASS] != QB_ELFCLASS || eh->e_machine != QB_MACHINE)
		return "wrong architecture (not " QB_ARCH_NAME ")";
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_ident[EI_VERSION] != EV_CURRENT)
		return "unsupported ELF encoding or version";
	if (eh->e_type != ET_DYN && !(allow_exec && eh->e_type == ET_EXEC))
		return eh->e_type == ET_EXEC ? "not a shared object (ET_EXEC)" : "not a dynamic ELF object";
	if (eh->e_phentsize != sizeof(Phdr) || !eh->e_phnum ||
	    (size_t)eh->e_phnum * sizeof(Phdr) > MAX_PHDR_BYTES)
		return "bad program header table";
	return 0;
}

static int prot_of(unsigned flags)
{
	return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
	       (flags & PF_X ? PROT_EXEC : 0);
}

/* Check every segment against the file and the others; fill the range. */
hidden const char *qb_check_phdrs(struct dso *p, size_t fsize, size_t page, size_t *align)
{
	size_t vmin = (size_t)-1, vmax = 0, prev_end = 0;
	int nload = 0;
	*align = page;
	for (size_t i = 0; i < p->phnum; i++) {
		Phdr *ph = &p->phdr[i];
		if (ph->p_type == PT_LOAD) {
			nload++;
			if (ph->p_filesz > ph->p_memsz ||
			    ph->p_offset > fsize || ph->p_filesz > fsize - ph->p_offset)
				return "segment extends past the end of the file";
			if (ph->p_vaddr + ph->p_memsz < ph->p_vaddr)
				return "segment wraps around the address space";
			if ((ph->p_vaddr - ph->p_offset) & (page - 1))
				return "segment offset and address disagree modulo the page size";
			/* Ascending and on pages of their own: a segment mapped
			 * over another would change protections the loader
			 * relies on. */
			if (nload > 1 && (ph->p_vaddr & -page) < prev_end)
				return "loadable segments overlap or are out of order";
			prev_end = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
			if (ph->p_vaddr < vmin)
				vmin = ph->p_vaddr;
			if (ph->p_vaddr + ph->p_memsz > vmax)
				vmax = ph->p_vaddr + ph->p_memsz;
			if (ph->p_align > *align && !(ph->p_align & (ph->p_align - 1)))
				*align = ph->p_align;
		} else {
			qb_note_phdr(p, ph);
		}
	}
	if (!nload)
		return "no loadable segment";
	if (!p->dynv)
		return "no dynamic section";
	p->vmin = vmin & -page;
	p->vmax = (vmax + page - 1) & -page;
	if (p->vmax < vmax)
		return "address range too large";
	size_t dyn = (size_t)p->dynv;
	if (dyn < vmin || dyn >= vmax)
		return "dynamic section outside the loadable segments";
	return 0;
}

/* Program headers as mapped against the ones checked, word by word
 * (both aligned; memcmp goes byte by byte). */
static int same_phdrs(const void *mapped, const Phdr *ph, size_t n)
{
	typedef size_t __attribute__((may_alias)) word;
	const word *a = mapped, *b = (const word *)ph;
	for (size_t i = 0; i < n * sizeof *ph / sizeof *a; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* The first loadable segment with bytes in memory. */
static const Phdr *first_load(const struct dso *p)
{
	for (size_t i = 0; i < p->phnum; i++)
		if (p->phdr[i].p_type == PT_LOAD && p->phdr[i].p_memsz)
			return &p->phdr[i];
	return 0;
}

/* A program with fixed addresses (ET_EXEC, run as a command) is placed
 * where it asks only if nothing is there: MAP_FIXED_NOREPLACE keeps it off
 * the loader, its heap and every other mapping (a kernel older than 4.17
 * takes the flag as a hint, so the address the mapping got is checked
 * too). Page zero, where a null pointer leads, and the room the kernel
 * keeps free below the stack for it to grow into (no mapping yet, so the
 * flag cannot see it) are refused as well. */
static const char *fixed_range_refused(size_t lo, size_t hi)
{
	const size_t guard = (size_t)1 << 20;
	size_t room = (size_t)128 << 20;
	struct rlimit rl;
	if (lo < __libc.page_size)
		return "segments at address 0";
	if (!getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur < room)
		room = rl.rlim_cur;
	/* the aux vector lies in the stack, above where it grows */
	size_t stack = (size_t)__libc.auxv;
	size_t below = stack > room + guard ? stack - room - guard : 0;
	if (stack && hi > below && lo <= stack)
		return "segments overlap the stack";
	return 0;
}

/* The end of the file bytes one mapping of segment i can map: its own,
 * and those of the segments after it with its protection and its
 * distance between file offset and address, each on the page after the
 * one before it ends (whose bss lies in its last file page): the table
 * segment linkopt places after the writable one. *last: the last. */
static size_t joined_end(const struct dso *p, size_t i, size_t page, size_t *last)
{
	const Phdr *a = &p->phdr[i];
	*last = i;
	for (size_t j = i + 1; j < p->phnum; j++) {
		const Phdr *b = &p->phdr[j];
		size_t a_end = (a->p_vaddr + a->p_filesz + page - 1) & -page;
		if (b->p_type != PT_LOAD)
			continue;
		if (!b->p_filesz || b->p_flags != a->p_flags || a->p_vaddr + a->p_memsz > a_end ||
		    (b->p_vaddr & -page) != a_end || b->p_vaddr - b->p_offset != a->p_vaddr - a->p_offset)
			break;
		a = b;
		*last = j;
	}
	return a->p_vaddr + a->p_filesz;
}

/* When the first segment starts the range and no alignment beyond pages
 * is asked for, one mapping of the file covers the whole range with the
 * first segment's protection and is that segment's mapping, and the
 * mapping of every segment with the same protection and the same
 * distance between file offset and address (read-only data after the
 * code, as linkers lay it out); a segment at that distance with another
 * protection (the code) is made so by mprotect. Every other segment has
 * an mmap of its own. Under valgrind, each segment has one, as musl's
 * loader maps them: it learns about objects from mmap alone, and reads
 * an object's symbols (and finds its preloaded malloc that way) only when
 * each segment is a mapping of the file it has seen, and the code one was
 * mapped executable, not made so by mprotect. */
static const char *map_segments(struct dso *p, int fd, int exec, size_t page, size_t align)
{
	size_t span = p->vmax - p->vmin;
	unsigned char *hint = exec ? (unsigned char *)p->vmin : 0;
	const Phdr *first = first_load(p);
	int whole = align <= page && first && first->p_filesz && (first->p_vaddr & -page) == p->vmin;
	int share = whole && !qb_under_valgrind();
	size_t off0 = whole ? first->p_offset & -page : 0;
	int prot0 = whole ? prot_of(first->p_flags) : PROT_NONE;
	size_t extra = exec || align <= page ? 0 : align - page;
	/* The kernel places a file mapping of 2 MiB or more on a 2 MiB
	 * boundary, away from the objects loaded with it, which then cannot
	 * leave in one munmap (txn.c): such a range is reserved first. */
	int reserve = !whole || (!exec && span >= ((size_t)2 << 20));
	const char *why;
	/* a quarter of the address space at most (the program the kernel
	 * mapped has what the kernel gave it) */
	if (span > ((size_t)1 << (sizeof(size_t) * 8 - 2)))
		return "address range too large";
	if (exec && (why = fixed_range_refused(p->vmin, p->vmax)))
		return why;
	unsigned char *m = !reserve ?
		mmap(hint, span, prot0, MAP_PRIVATE | (exec ? MAP_FIXED_NOREPLACE : 0), fd, off0) :
		mmap(hint, span + extra, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | (exec ? MAP_FIXED_NOREPLACE : 0), -1, 0);
	if (m == MAP_FAILED)
		return errno == EEXIST ? "address range already in use" :
			!reserve ? "cannot map segment" : "cannot reserve address space";
	if (exec && m != hint) {
		munmap(m, span);
		return "address range already in use";
	}
	if (reserve && whole && mmap(m, span, prot0, MAP_PRIVATE | MAP_FIXED, fd, off0) == MAP_FAILED) {
		munmap(m, span);
		return "cannot map segment";
	}
	if (extra) {
		unsigned char *a = (unsigned char *)(((size_t)m + align - 1) & -align);
		if (a > m)
			munmap(m, a - m);
		if (a + span < m + span + extra)
			munmap(a + span, m + span + extra - (a + span));
		m = a;
	}
	p->map = m;
	p->map_len = span;
	p->base = exec ? 0 : m - p->vmin;

	size_t done = p->vmin;  /* below it, the range is as it will stay */
	size_t joined = 0;      /* segments before it are in an earlier mapping */
	for (size_t i = 0; i < p->phnum; i++) {
		Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		int prot = prot_of(ph->p_flags);
		size_t start = ph->p_vaddr & -page;
		size_t fend = ph->p_vaddr + ph->p_filesz;
		size_t mend = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		/* the pages between segments stay reserved, never readable */
		if (whole && start > done && mmap(p->base + done, start - done, PROT_NONE,
		    MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
			return "cannot reserve address space";
		done = mend;
		size_t last = i;
		int congruent = share && ph->p_vaddr - ph->p_offset == first->p_vaddr - first->p_offset;
		if (!ph->p_filesz || (whole && ph == first) || i < joined || (congruent && prot == prot0)) {
			/* no file bytes, or an earlier mapping is this segment's */
		} else {
			/* the whole-range mapping holds a congruent segment's
			 * bytes: only the protection differs, and mprotect is
			 * the cheaper call */
			size_t len = (share ? joined_end(p, i, page, &last) : fend) - start;
			if (congruent ? mprotect(p->base + start, len, prot) < 0 : mmap(p->base + start, len,
			    prot, MAP_PRIVATE | MAP_FIXED, fd, ph->p_offset & -page) == MAP_FAILED)
				return "cannot map segment";
			joined = last + 1;
		}
		/* bss: zero pages after the last file page */
		size_t zpage = ph->p_filesz ? (fend + page - 1) & -page : start;
		if (mend > zpage && mmap(p->base + zpage, mend - zpage, prot,
		    MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
			return "cannot map bss";
	}
	return 0;
}

/* The bss that shares the last file page of its segment is cleared by
 * hand. */
static void clear_bss_tails(struct dso *p, size_t page)
{
	for (size_t i = 0; i < p->phnum; i++) {
		Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || ph->p_memsz <= ph->p_filesz || !ph->p_filesz)
			continue;
		int prot = prot_of(ph->p_flags);
		size_t fend = ph->p_vaddr + ph->p_filesz;
		size_t zpage = (fend + page - 1) & -page;
		if (fend == zpage)
			continue;
		if (!(prot & PROT_WRITE))
			mprotect(p->base + (fend & -page), page, prot | PROT_WRITE);
		memset(p->base + fend, 0, zpage - fend);
		if (!(prot & PROT_WRITE))
			mprotect(p->base + (fend & -page), page, prot);
	}
}

hidden void qb_fileid_of(const struct stat *st, struct qb_fileid *id)
{
	*id = (struct qb_fileid){ st->st_dev, st->st_ino, st->st_size,
		(uint64_t)st->st_mtim.tv_sec * 1000000000u + st->st_mtim.tv_nsec,
		(uint64_t)st->st_ctim.tv_sec * 1000000000u + st->st_ctim.tv_nsec };
}

/* Map the object open on fd, whose fstat is *st (0: not taken yet); the
 * returned dso is not yet in any list. On failure returns 0 and a reason
 * in *why. */
hidden struct dso *qb_map_file(int fd, const struct stat *known, const char *path, int allow_exec,
	const char **why)
{
	/* One read for the ELF header and, as linkers place them, the
	 * program headers right after it. */
	union { Ehdr eh; Phdr ph; unsigned char buf[1024]; } u;
	struct stat st;
	size_t page = __libc.page_size;

	if (known)
		st = *known;
	else if (fstat(fd, &st) < 0) {
		*why = "cannot stat";
		return 0;
	}
	qb_ext_file(0, fd, &st);
	ssize_t got = pread(fd, u.buf, sizeof u.buf, 0);
	if (got < 0) {
		/* a directory: "Is a directory", as musl says */
		*why = strerror(errno);
		return 0;
	}
	if ((*why = check_ehdr(&u.eh, got, allow_exec)))
		return 0;

	struct dso *p = qb_calloc(1, sizeof *p);
	size_t phsize = (size_t)u.eh.e_phnum * sizeof(Phdr);
	Phdr *ph = 0, *heap = 0;
	if (!p) {
		*why = "out of memory";
		goto fail;
	}
	if (u.eh.e_phoff > (size_t)st.st_size || phsize > (size_t)st.st_size - u.eh.e_phoff) {
		*why = "program headers past the end of the file";
		goto fail;
	}
	if (u.eh.e_phoff <= (size_t)got && phsize <= (size_t)got - u.eh.e_phoff &&
	    !(u.eh.e_phoff % _Alignof(Phdr))) {
		ph = (Phdr *)(u.buf + u.eh.e_phoff);
	} else {
		/* elsewhere in the file: read on their own */
		ph = heap = qb_malloc(phsize);
		if (!heap) {
			*why = "out of memory";
			goto fail;
		}
		if (pread(fd, heap, phsize, u.eh.e_phoff) != (ssize_t)phsize) {
			*why = "program headers past the end of the file";
			goto fail;
		}
	}
	p->phdr = ph;
	p->phnum = u.eh.e_phnum;
	size_t align;
	if ((*why = qb_check_phdrs(p, st.st_size, page, &align)))
		goto fail;
	if ((*why = map_segments(p, fd, u.eh.e_type == ET_EXEC, page, align)))
		goto fail;
	qb_fileid_of(&st, &p->id);
	/* before anything reads a page that will be written */
	qb_ext_file(p, fd, &st);
	clear_bss_tails(p, page);

	/* The tables the loader reads must lie inside readable segments, not
	 * in the unmapped gaps between them. */
	if (!qb_in_image(p, (size_t)p->dynv, p->dyn_size) || p->dyn_size < sizeof(Dyn)) {
		*why = "dynamic section outside the loadable segments";
		goto fail;
	}
	p->dynv = (size_t *)(p->base + (size_t)p->dynv);
	if (p->tls.size)
		p->tls.image = p->base + (size_t)p->tls.image;
	/* Prefer the program headers as mapped (dl_iterate_phdr users read
	 * them there) when a PT_PHDR holds them: the very headers checked
	 * above, since everything after this reads p->phdr. */
	for (size_t i = 0; i < p->phnum; i++)
		if (ph[i].p_type == PT_PHDR) {
			/* read in place as Phdr: no linker misaligns it */
			if (ph[i].p_vaddr % _Alignof(Phdr)) {
				*why = "misaligned PT_PHDR";
				goto fail;
			}
			if (qb_in_image(p, ph[i].p_vaddr, phsize) &&
			    same_phdrs(p->base + ph[i].p_vaddr, ph, p->phnum))
				p->phdr = (Phdr *)(p->base + ph[i].p_vaddr);
			break;
		}
	/* Without PT_PHDR (shared objects rarely have one), where the
	 * segment holding them maps them, as musl and glibc report them. */
	for (size_t i = 0; p->phdr == ph && i < p->phnum; i++) {
		const Phdr *l = &ph[i];
		size_t at = (size_t)u.eh.e_phoff - l->p_offset;
		if (l->p_type != PT_LOAD || !(l->p_flags & PF_R) || u.eh.e_phoff < l->p_offset ||
		    at > l->p_filesz || phsize > l->p_filesz - at || (l->p_vaddr + at) % _Alignof(Phdr))
			continue;
		if (same_phdrs(p->base + l->p_vaddr + at, ph, p->phnum))
			p->phdr = (Phdr *)(p->base + l->p_vaddr + at);
		break;
	}
	if (p->phdr == ph && !heap) {
		/* not mapped: the loader keeps its own copy */
		if (!(heap = qb_malloc(phsize))) {
			*why = "out of memory";
			goto fail;
		}
		p->phdr = memcpy(heap, ph, phsize);
	} else if (p->phdr != ph) {
		qb_free(heap);
	}
	ph = heap = 0;
	p->name = (char *)path;  /* the caller keeps its own copy */
	if ((*why = qb_dso_decode(p)))
		goto fail;
	return p;
fail:
	if (p && p->map)
		munmap(p->map, p->map_len);
	if (p && p->phdr != ph && p->phdr != heap && !(p->map &&
	    (unsigned char *)p->phdr >= p->map && (unsigned char *)p->phdr < p->map + p->map_len))
		qb_free(p->phdr);
	qb_free(heap);
	qb_free(p);
	return 0;
}
