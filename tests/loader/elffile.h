/* Whole-file I/O for the test tools that write damaged copies of ELF
 * files (errors/elfcorrupt.c, fuzz/elfmutate.c). Each tool defines die(). */
#ifndef QB_TESTS_ELFFILE_H
#define QB_TESTS_ELFFILE_H

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *m);

/* The whole of path, an ELF file of either class. */
static inline unsigned char *read_elf(const char *path, long *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot open input");
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	rewind(f);
	unsigned char *buf = malloc(*size > 0 ? *size : 1);
	if (!buf || fread(buf, 1, *size, f) != (size_t)*size)
		die("cannot read input");
	fclose(f);
	if (*size < (long)sizeof(Elf64_Ehdr) || memcmp(buf, ELFMAG, SELFMAG) ||
	    (buf[EI_CLASS] != ELFCLASS64 && buf[EI_CLASS] != ELFCLASS32))
		die("input is not an ELF file");
	return buf;
}

/* The whole of path; its ELF64 header is copied to *eh. */
static inline unsigned char *read_elf64(const char *path, long *size, Elf64_Ehdr *eh)
{
	unsigned char *buf = read_elf(path, size);
	memcpy(eh, buf, sizeof *eh);
	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		die("input is not ELF64");
	return buf;
}

static inline void write_file(const char *path, const unsigned char *buf, long size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, size, f) != (size_t)size || fclose(f))
		die("cannot write output");
}

#endif
