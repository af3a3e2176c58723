/* Writes a corrupted copy of an ELF file (ELF32 or ELF64), for the
 * loader's malformed-input tests:
 *   elfcorrupt phoff  IN OUT   e_phoff points past the end of the file
 *   elfcorrupt filesz IN OUT   the last PT_LOAD's p_filesz (and p_memsz)
 *                              reach 64 KiB past the end of the file
 *   elfcorrupt reltype IN OUT  the first DT_RELA (ELF64) or DT_REL (ELF32)
 *                              relocation gets type R_X86_64_SIZE64 or
 *                              R_386_SIZE32, which no loader applies at
 *                              run time
 *   elfcorrupt entry IN OUT    e_entry points into the ELF header, not code
 *   elfcorrupt phdrnoread IN OUT  the PT_LOAD holding the program headers
 *                              is mapped without read permission
 *   elfcorrupt relro IN OUT    PT_GNU_RELRO covers addresses 0 to 0x100000
 *   elfcorrupt tlsmemsz IN OUT PT_TLS's p_memsz is 16 bytes short of the
 *                              whole address space
 *   elfcorrupt gnubucket IN OUT every non-empty DT_GNU_HASH bucket holds
 *                              0x80000000 (sizes computed from it wrap a
 *                              32-bit address space)
 * and reshapes valid files into layouts linkers rarely make:
 *   elfcorrupt palign IN OUT   every PT_LOAD's p_align is the page size
 *                              (a file linked for bigger pages then has
 *                              gaps between page-aligned segments)
 *   elfcorrupt phmove IN OUT   the program headers are copied to the end
 *                              of the file, e_phoff names the copy: the
 *                              first page no longer holds them */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../elffile.h"

static void die(const char *m)
{
	fprintf(stderr, "elfcorrupt: %s\n", m);
	exit(1);
}

static struct qb_elfbuf file;
static Elf64_Phdr phdrs[256];

static int is64;

static void corrupt_reltype(unsigned char *buf)
{
	struct qb_dyninfo d;
	read_dynamic(&file, &d);
	if (is64) {
		if (!d.rela)
			die("no DT_RELA");
		long off = file_offset(&file, d.rela, sizeof(Elf64_Rela));
		Elf64_Rela r;
		memcpy(&r, buf + off, sizeof r);
		r.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), R_X86_64_SIZE64);
		memcpy(buf + off, &r, sizeof r);
	} else {
		if (!d.rel)
			die("no DT_REL");
		long off = file_offset(&file, d.rel, sizeof(Elf32_Rel));
		Elf32_Rel r;
		memcpy(&r, buf + off, sizeof r);
		r.r_info = ELF32_R_INFO(ELF32_R_SYM(r.r_info), R_386_SIZE32);
		memcpy(buf + off, &r, sizeof r);
	}
}

/* Set program header i's p_vaddr (when vaddr != -1) and p_memsz. */
static void phdr_set(unsigned char *buf, unsigned i, uint64_t vaddr, uint64_t memsz)
{
	if (is64) {
		Elf64_Phdr *p = (Elf64_Phdr *)(buf + file.eh.e_phoff) + i;
		if (vaddr != (uint64_t)-1)
			p->p_vaddr = vaddr;
		p->p_memsz = memsz;
	} else {
		Elf32_Phdr *p = (Elf32_Phdr *)(buf + file.eh.e_phoff) + i;
		if (vaddr != (uint64_t)-1)
			p->p_vaddr = (Elf32_Addr)vaddr;
		p->p_memsz = (Elf32_Word)memsz;
	}
}

/* Program header i written back from its 64-bit form p. */
static void phdr_store(unsigned char *buf, unsigned i, const Elf64_Phdr *p)
{
	if (is64) {
		memcpy(buf + file.eh.e_phoff + i * sizeof *p, p, sizeof *p);
	} else {
		Elf32_Phdr q = {
			.p_type = p->p_type, .p_offset = (Elf32_Off)p->p_offset,
			.p_vaddr = (Elf32_Addr)p->p_vaddr, .p_paddr = (Elf32_Addr)p->p_paddr,
			.p_filesz = (Elf32_Word)p->p_filesz, .p_memsz = (Elf32_Word)p->p_memsz,
			.p_flags = p->p_flags, .p_align = (Elf32_Word)p->p_align,
		};
		memcpy(buf + file.eh.e_phoff + i * sizeof q, &q, sizeof q);
	}
}

/* The ELF header written back from its 64-bit form (the fields this tool
 * changes: e_entry, e_phoff). */
static void ehdr_store(unsigned char *buf, const Elf64_Ehdr *eh)
{
	if (is64) {
		memcpy(buf, eh, sizeof *eh);
	} else {
		Elf32_Ehdr e;
		memcpy(&e, buf, sizeof e);
		e.e_entry = (Elf32_Addr)eh->e_entry;
		e.e_phoff = (Elf32_Off)eh->e_phoff;
		memcpy(buf, &e, sizeof e);
	}
}

static unsigned find_phdr(uint32_t type)
{
	for (unsigned i = 0; i < file.phnum; i++)
		if (phdrs[i].p_type == type)
			return i;
	die("no program header of the type to corrupt");
	return 0;
}

/* Every non-empty bucket, found where the loader finds them. */
static void corrupt_gnubucket(unsigned char *buf)
{
	struct qb_dyninfo d;
	struct qb_hashinfo h;
	read_dynamic(&file, &d);
	if (!d.gnu_hash)
		die("no DT_GNU_HASH");
	const char *why = qb_hashinfo(&file.view, 0, d.gnu_hash, &h);
	if (why)
		die(why);
	long b = file_offset(&file, h.gnu_buckets, 4ull * h.gnu_nbuckets);
	int changed = 0;
	for (uint32_t i = 0; i < h.gnu_nbuckets; i++) {
		uint32_t v;
		memcpy(&v, buf + b + 4l * i, 4);
		if (v) {
			v = 0x80000000u;
			memcpy(buf + b + 4l * i, &v, 4);
			changed = 1;
		}
	}
	if (!changed)
		die("every DT_GNU_HASH bucket is empty");
}

int main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: elfcorrupt MODE IN OUT");
	long size;
	Elf64_Ehdr eh;
	unsigned char *buf = read_elf(argv[2], &size);
	open_elfbuf(&file, buf, size, phdrs, sizeof phdrs / sizeof *phdrs);
	is64 = file.view.wide;
	if (!strcmp(argv[1], "relro")) {
		phdr_set(buf, find_phdr(PT_GNU_RELRO), 0, 0x100000);
		goto write;
	} else if (!strcmp(argv[1], "tlsmemsz")) {
		phdr_set(buf, find_phdr(PT_TLS), (uint64_t)-1, is64 ? 0xfffffffffffffff0ull : 0xfffffff0u);
		goto write;
	} else if (!strcmp(argv[1], "gnubucket")) {
		corrupt_gnubucket(buf);
		goto write;
	} else if (!strcmp(argv[1], "palign")) {
		for (unsigned i = 0; i < file.phnum; i++)
			if (phdrs[i].p_type == PT_LOAD) {
				Elf64_Phdr ph = phdrs[i];
				ph.p_align = 0x1000;
				phdr_store(buf, i, &ph);
			}
		goto write;
	}
	eh = file.eh;

	if (!strcmp(argv[1], "phoff")) {
		eh.e_phoff = size + 4096;
		ehdr_store(buf, &eh);
	} else if (!strcmp(argv[1], "filesz")) {
		unsigned last = find_phdr(PT_LOAD);
		for (unsigned i = last; i < file.phnum; i++)
			if (phdrs[i].p_type == PT_LOAD)
				last = i;
		Elf64_Phdr ph = phdrs[last];
		ph.p_filesz = size - ph.p_offset + 65536;
		if (ph.p_memsz < ph.p_filesz)
			ph.p_memsz = ph.p_filesz;
		phdr_store(buf, last, &ph);
	} else if (!strcmp(argv[1], "phmove")) {
		long at = (size + 7) & ~7l;
		long phsize = (long)file.phnum * (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr));
		buf = realloc(buf, at + phsize);
		if (!buf)
			die("out of memory");
		memset(buf + size, 0, at - size);
		memcpy(buf + at, buf + eh.e_phoff, phsize);
		size = at + phsize;
		eh.e_phoff = at;
		ehdr_store(buf, &eh);
	} else if (!strcmp(argv[1], "reltype")) {
		corrupt_reltype(buf);
	} else if (!strcmp(argv[1], "entry")) {
		eh.e_entry = 0x10;
		ehdr_store(buf, &eh);
	} else if (!strcmp(argv[1], "phdrnoread")) {
		int done = 0;
		for (unsigned i = 0; i < file.phnum && !done; i++) {
			Elf64_Phdr ph = phdrs[i];
			if (ph.p_type == PT_LOAD && eh.e_phoff >= ph.p_offset &&
			    eh.e_phoff < ph.p_offset + ph.p_filesz) {
				ph.p_flags = 0;
				phdr_store(buf, i, &ph);
				done = 1;
			}
		}
		if (!done)
			die("no PT_LOAD holds the program headers");
	} else {
		die("unknown mode");
	}

write:
	write_file(argv[3], buf, size);
	free(buf);
	return 0;
}
