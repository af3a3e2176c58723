/* An ELF file held in a buffer, for linkopt and the test tools: headers
 * of either class read into the 64-bit structures, and the buffer seen as
 * the object it loads as (struct qb_elfview), addresses resolved through
 * the PT_LOAD segments' file parts. Host only; the loader maps files. */
#ifndef QB_ELFBUF_H
#define QB_ELFBUF_H

#include "elfview.h"

struct qb_elfbuf {
	struct qb_elfview view;      /* first: at() finds the rest from it */
	const uint8_t *buf;
	uint64_t size;
	Elf64_Ehdr eh;
	const Elf64_Phdr *ph;        /* the caller's array, phnum entries */
	unsigned phnum;
};

/* 1 when [off, off+len) lies inside [0, size) without overflow. */
static inline int qb_in_file(uint64_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

/* Check the identification and read the ELF header of buf. Returns 0 or
 * a reason (the class and machine are the caller's to judge). */
const char *qb_elfbuf_ehdr(const uint8_t *buf, uint64_t size, Elf64_Ehdr *eh);
/* Header i of a table at off with entries of the file's class; the
 * caller has checked that the table lies in the file. */
void qb_elfbuf_phdr(const uint8_t *buf, int wide, uint64_t off, unsigned i, Elf64_Phdr *o);
void qb_elfbuf_shdr(const uint8_t *buf, int wide, uint64_t off, unsigned i, Elf64_Shdr *o);
void qb_elfbuf_dyn(const uint8_t *buf, int wide, uint64_t off, size_t i, Elf64_Dyn *o);
/* Set up f over buf (eh from qb_elfbuf_ehdr, ph the file's program
 * headers read with qb_elfbuf_phdr). */
void qb_elfbuf_init(struct qb_elfbuf *f, const uint8_t *buf, uint64_t size,
	const Elf64_Ehdr *eh, const Elf64_Phdr *ph, unsigned phnum);
/* File offset of [va, va+len), inside one PT_LOAD's file part: 0 or -1. */
int qb_elfbuf_v2o(const struct qb_elfbuf *f, uint64_t va, uint64_t len, uint64_t *off);

#endif
