/* Mapping an ELF object from a file descriptor: validate the headers,
 * reserve the whole address range once, map each PT_LOAD over it with its
 * own protections, and clear the bss. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ldso.h"

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

extern unsigned __default_stacksize hidden;

/* PT_GNU_STACK's size, when set, asks for bigger thread stacks (as musl
 * does; the stack is never made executable). */
hidden void qb_stack_request(size_t size)
{
	const size_t max = 8 << 20;
	if (size > __default_stacksize)
		__default_stacksize = size < max ? size : max;
}

static int prot_of(unsigned flags)
{
	return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
	       (flags & PF_X ? PROT_EXEC : 0);
}

/* Check every segment against the file and the others; fill the range. */
static const char *check_phdrs(struct dso *p, size_t fsize, size_t page, size_t *align)
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
		} else if (ph->p_type == PT_DYNAMIC) {
			p->dynv = (size_t *)ph->p_vaddr;  /* biased after mapping */
			p->dyn_size = ph->p_memsz;
		} else if (ph->p_type == PT_TLS) {
			/* checked with the dynamic section (qb_dso_decode) */
			p->tls.len = ph->p_filesz;
			p->tls.size = ph->p_memsz;
			p->tls.align = ph->p_align ? ph->p_align : 1;
			p->tls.image = (void *)ph->p_vaddr;
		} else if (ph->p_type == PT_GNU_RELRO) {
			p->relro_start = ph->p_vaddr & -page;
			p->relro_end = (ph->p_vaddr + ph->p_memsz) & -page;
		} else if (ph->p_type == PT_GNU_STACK) {
			qb_stack_request(ph->p_memsz);
		}
	}
	if (!nload)
		return "no loadable segment";
	if (!p->dynv)
		return "no dynamic section";
	p->vmin = vmin & -page;
	p->vmax = (vmax + page - 1) & -page;
	if (p->vmax < vmax || p->vmax - p->vmin > ((size_t)1 << (sizeof(size_t) * 8 - 2)))
		return "address range too large";
	size_t dyn = (size_t)p->dynv;
	if (dyn < vmin || dyn >= vmax)
		return "dynamic section outside the loadable segments";
	return 0;
}

static const char *map_segments(struct dso *p, int fd, int exec, size_t page, size_t align)
{
	size_t span = p->vmax - p->vmin;
	unsigned char *hint = exec ? (unsigned char *)p->vmin : 0;
	size_t extra = exec || align <= page ? 0 : align - page;
	unsigned char *m = mmap(hint, span + extra, PROT_NONE,
		MAP_PRIVATE | MAP_ANONYMOUS | (exec ? MAP_FIXED_NOREPLACE : 0), -1, 0);
	if (m == MAP_FAILED)
		return errno == EEXIST ? "address range already in use" : "cannot reserve address space";
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

	for (size_t i = 0; i < p->phnum; i++) {
		Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		int prot = prot_of(ph->p_flags);
		size_t start = ph->p_vaddr & -page;
		size_t fend = ph->p_vaddr + ph->p_filesz;
		size_t mend = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		if (ph->p_filesz) {
			size_t flen = fend - start;
			if (mmap(p->base + start, flen, prot, MAP_PRIVATE | MAP_FIXED, fd,
			    ph->p_offset & -page) == MAP_FAILED)
				return "cannot map segment";
		}
		if (ph->p_memsz > ph->p_filesz) {
			/* bss: clear the tail of the last file page, then map
			 * zero pages for the rest. */
			size_t zpage = (fend + page - 1) & -page;
			if (ph->p_filesz && fend < zpage) {
				if (!(prot & PROT_WRITE))
					mprotect(p->base + (fend & -page), page, prot | PROT_WRITE);
				memset(p->base + fend, 0, zpage - fend);
				if (!(prot & PROT_WRITE))
					mprotect(p->base + (fend & -page), page, prot);
			}
			if (!ph->p_filesz)
				zpage = start;
			if (mend > zpage && mmap(p->base + zpage, mend - zpage, prot,
			    MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
				return "cannot map bss";
		}
	}
	return 0;
}

/* Map the object open on fd; the returned dso is not yet in any list. On
 * failure returns 0 and a reason in *why. */
hidden struct dso *qb_map_file(int fd, const char *path, int allow_exec, const char **why)
{
	union { Ehdr eh; unsigned char buf[1024]; } u;
	struct stat st;
	size_t page = __libc.page_size;

	if (fstat(fd, &st) < 0) {
		*why = "cannot stat";
		return 0;
	}
	ssize_t got = pread(fd, u.buf, sizeof u.buf, 0);
	if (got < 0) {
		*why = "read error";
		return 0;
	}
	if ((*why = check_ehdr(&u.eh, got, allow_exec)))
		return 0;

	struct dso *p = __libc_calloc(1, sizeof *p);
	size_t phsize = (size_t)u.eh.e_phnum * sizeof(Phdr);
	Phdr *ph = __libc_malloc(phsize);
	if (!p || !ph) {
		*why = "out of memory";
		goto fail;
	}
	if (u.eh.e_phoff > (size_t)st.st_size || phsize > (size_t)st.st_size - u.eh.e_phoff ||
	    pread(fd, ph, phsize, u.eh.e_phoff) != (ssize_t)phsize) {
		*why = "program headers past the end of the file";
		goto fail;
	}
	p->phdr = ph;
	p->phnum = u.eh.e_phnum;
	p->phentsize = sizeof(Phdr);
	size_t align;
	if ((*why = check_phdrs(p, st.st_size, page, &align)))
		goto fail;
	if ((*why = map_segments(p, fd, u.eh.e_type == ET_EXEC, page, align)))
		goto fail;

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
			    !memcmp(p->base + ph[i].p_vaddr, ph, phsize)) {
				p->phdr = (Phdr *)(p->base + ph[i].p_vaddr);
				__libc_free(ph);
				ph = 0;
			}
			break;
		}
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	p->fsize = st.st_size;
	p->fmtime = (uint64_t)st.st_mtim.tv_sec * 1000000000u + st.st_mtim.tv_nsec;
	p->fctime = (uint64_t)st.st_ctim.tv_sec * 1000000000u + st.st_ctim.tv_nsec;
	p->name = (char *)path;  /* the caller keeps its own copy */
	if ((*why = qb_dso_decode(p)))
		goto fail;
	return p;
fail:
	if (p && p->map)
		munmap(p->map, p->map_len);
	if (ph)
		__libc_free(ph);
	__libc_free(p);
	return 0;
}
