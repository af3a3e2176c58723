/*
 * The floor of loading: map each library of a list as a loader must, and
 * nothing else. For each path of LISTFILE (one a line, in load order):
 * open it, read its ELF and program headers, map its whole range once
 * from the file with the first segment's protection, map every other
 * loadable segment over it with its own, zero pages for a bss past the
 * file, write one byte on every writable page (what relocation writes),
 * make PT_GNU_RELRO read-only, close it; then exit. No symbol is read,
 * no relocation applied, no initializer run: what is left of a program's
 * start-up beyond this is the loader's work and the program's own.
 *
 * usage: mapfloor LISTFILE
 * Static (musl), for the ELF class it is built for.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if UINTPTR_MAX == 0xffffffff
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Phdr Phdr;
#else
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Phdr Phdr;
#endif

#define PAGE 4096u

static int prot_of(unsigned f)
{
	return (f & PF_R ? PROT_READ : 0) | (f & PF_W ? PROT_WRITE : 0) | (f & PF_X ? PROT_EXEC : 0);
}

static int map_one(const char *path)
{
	union { Ehdr eh; unsigned char b[4096]; } u;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, u.b, sizeof u.b, 0) < (ssize_t)sizeof u.eh ||
	    u.eh.e_phoff + (size_t)u.eh.e_phnum * sizeof(Phdr) > sizeof u.b) {
		fprintf(stderr, "mapfloor: %s: cannot read its headers\n", path);
		return -1;
	}
	const Phdr *ph = (const Phdr *)(u.b + u.eh.e_phoff);
	size_t lo = SIZE_MAX, hi = 0;
	for (int i = 0; i < u.eh.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD) {
			if ((ph[i].p_vaddr & -PAGE) < lo)
				lo = ph[i].p_vaddr & -PAGE;
			if (ph[i].p_vaddr + ph[i].p_memsz > hi)
				hi = ph[i].p_vaddr + ph[i].p_memsz;
		}
	hi = (hi + PAGE - 1) & -PAGE;
	unsigned char *m = mmap(0, hi - lo, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		fprintf(stderr, "mapfloor: %s: cannot map\n", path);
		return -1;
	}
	unsigned char *base = m - lo;
	int first = 1;
	for (int i = 0; i < u.eh.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		int prot = prot_of(ph[i].p_flags);
		size_t s = ph[i].p_vaddr & -PAGE, e = (ph[i].p_vaddr + ph[i].p_filesz + PAGE - 1) & -PAGE;
		size_t me = (ph[i].p_vaddr + ph[i].p_memsz + PAGE - 1) & -PAGE;
		if (!first || prot != PROT_READ)
			mmap(base + s, e - s, prot, MAP_PRIVATE | MAP_FIXED, fd, ph[i].p_offset & -PAGE);
		first = 0;
		if (me > e)
			mmap(base + e, me - e, prot, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0);
		if (prot & PROT_WRITE)
			for (size_t a = s; a < me; a += PAGE)
				((volatile unsigned char *)base)[a] = base[a];
	}
	for (int i = 0; i < u.eh.e_phnum; i++)
		if (ph[i].p_type == PT_GNU_RELRO) {
			size_t s = ph[i].p_vaddr & -PAGE, e = (ph[i].p_vaddr + ph[i].p_memsz) & -PAGE;
			if (e > s)
				mprotect(base + s, e - s, PROT_READ);
		}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
	if (!f) {
		fprintf(stderr, "usage: mapfloor LISTFILE\n");
		return 2;
	}
	while (fgets(path, sizeof path, f)) {
		path[strcspn(path, "\n")] = 0;
		if (*path && map_one(path) < 0)
			return 1;
	}
	return 0;
}
