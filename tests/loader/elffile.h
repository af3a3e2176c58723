/* Whole-file I/O for the test tools that write damaged copies of ELF
 * files (errors/elfcorrupt.c, fuzz/elfmutate.c), and the file as the
 * loader's own ELF reader sees it (common/elfbuf.h), so that a tool finds
 * a table where the loader will. Each tool defines die(). */
#ifndef QB_TESTS_ELFFILE_H
#define QB_TESTS_ELFFILE_H

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfbuf.h"

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

/* buf as the shared ELF reader sees it; ph (max entries) receives the
 * program headers in the 64-bit form. */
static inline void open_elfbuf(struct qb_elfbuf *f, const unsigned char *buf, long size,
	Elf64_Phdr *ph, unsigned max)
{
	Elf64_Ehdr eh;
	const char *why = qb_elfbuf_ehdr(buf, (uint64_t)size, &eh);
	if (why)
		die(why);
	int wide = eh.e_ident[EI_CLASS] == ELFCLASS64;
	size_t ent = wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (eh.e_phnum > max || eh.e_phentsize != ent ||
	    !qb_in_file((uint64_t)size, eh.e_phoff, (uint64_t)eh.e_phnum * ent))
		die("bad program header table");
	for (unsigned i = 0; i < eh.e_phnum; i++)
		qb_elfbuf_phdr(buf, wide, eh.e_phoff, i, &ph[i]);
	qb_elfbuf_init(f, buf, (uint64_t)size, &eh, ph, eh.e_phnum);
}

/* The dynamic section of f, decoded as the loader decodes it. */
static inline void read_dynamic(const struct qb_elfbuf *f, struct qb_dyninfo *d)
{
	size_t ent = f->view.wide ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	const char *why = "no PT_DYNAMIC";
	for (unsigned i = 0; i < f->phnum; i++)
		if (f->ph[i].p_type == PT_DYNAMIC) {
			if (!qb_in_file(f->size, f->ph[i].p_offset, f->ph[i].p_filesz))
				die("PT_DYNAMIC outside the file");
			if (!qb_decode_dynamic(f->buf + f->ph[i].p_offset, f->ph[i].p_filesz / ent,
			    f->view.wide, d, &why))
				return;
		}
	die(why);
}

/* File offset of link-time address va. */
static inline long file_offset(const struct qb_elfbuf *f, uint64_t va, uint64_t len)
{
	uint64_t off;
	if (qb_elfbuf_v2o(f, va, len, &off))
		die("address not in the file");
	return (long)off;
}

#endif
