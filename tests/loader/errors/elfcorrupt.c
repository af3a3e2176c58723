/* Writes a corrupted copy of a 64-bit ELF file, for the loader's
 * malformed-input tests:
 *   elfcorrupt phoff  IN OUT   e_phoff points past the end of the file
 *   elfcorrupt filesz IN OUT   the last PT_LOAD's p_filesz (and p_memsz)
 *                              reach 64 KiB past the end of the file
 *   elfcorrupt reltype IN OUT  the first DT_RELA relocation gets type
 *                              R_X86_64_SIZE64, which no loader applies
 *                              at run time
 *   elfcorrupt entry IN OUT    e_entry points into the ELF header, not code
 *   elfcorrupt phdrnoread IN OUT  the PT_LOAD holding the program headers
 *                              is mapped without read permission */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../elffile.h"

static void die(const char *m)
{
	fprintf(stderr, "elfcorrupt: %s\n", m);
	exit(1);
}

/* File offset of a virtual address, through the PT_LOAD that maps it. */
static long vaddr_to_off(const unsigned char *buf, const Elf64_Ehdr *eh, Elf64_Addr va)
{
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, buf + eh->e_phoff + (long)i * eh->e_phentsize, sizeof ph);
		if (ph.p_type == PT_LOAD && va >= ph.p_vaddr && va < ph.p_vaddr + ph.p_filesz)
			return (long)(va - ph.p_vaddr + ph.p_offset);
	}
	die("address not in the file");
	return -1;
}

static void corrupt_reltype(unsigned char *buf, long size, const Elf64_Ehdr *eh)
{
	Elf64_Addr rela = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, buf + eh->e_phoff + (long)i * eh->e_phentsize, sizeof ph);
		if (ph.p_type != PT_DYNAMIC)
			continue;
		for (long at = ph.p_offset; at + 16 <= size; at += 16) {
			Elf64_Dyn d;
			memcpy(&d, buf + at, sizeof d);
			if (d.d_tag == DT_NULL)
				break;
			if (d.d_tag == DT_RELA)
				rela = d.d_un.d_ptr;
		}
	}
	if (!rela)
		die("no DT_RELA");
	long off = vaddr_to_off(buf, eh, rela);
	Elf64_Rela r;
	memcpy(&r, buf + off, sizeof r);
	r.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), R_X86_64_SIZE64);
	memcpy(buf + off, &r, sizeof r);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: elfcorrupt phoff|filesz IN OUT");
	long size;
	Elf64_Ehdr eh;
	unsigned char *buf = read_elf64(argv[2], &size, &eh);

	if (!strcmp(argv[1], "phoff")) {
		eh.e_phoff = size + 4096;
		memcpy(buf, &eh, sizeof eh);
	} else if (!strcmp(argv[1], "filesz")) {
		long last = -1;
		for (int i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			long at = eh.e_phoff + (long)i * eh.e_phentsize;
			memcpy(&ph, buf + at, sizeof ph);
			if (ph.p_type == PT_LOAD)
				last = at;
		}
		if (last < 0)
			die("no PT_LOAD");
		Elf64_Phdr ph;
		memcpy(&ph, buf + last, sizeof ph);
		ph.p_filesz = size - ph.p_offset + 65536;
		if (ph.p_memsz < ph.p_filesz)
			ph.p_memsz = ph.p_filesz;
		memcpy(buf + last, &ph, sizeof ph);
	} else if (!strcmp(argv[1], "reltype")) {
		corrupt_reltype(buf, size, &eh);
	} else if (!strcmp(argv[1], "entry")) {
		eh.e_entry = 0x10;
		memcpy(buf, &eh, sizeof eh);
	} else if (!strcmp(argv[1], "phdrnoread")) {
		int done = 0;
		for (int i = 0; i < eh.e_phnum && !done; i++) {
			Elf64_Phdr ph;
			long at = eh.e_phoff + (long)i * eh.e_phentsize;
			memcpy(&ph, buf + at, sizeof ph);
			if (ph.p_type == PT_LOAD && eh.e_phoff >= ph.p_offset &&
			    eh.e_phoff < ph.p_offset + ph.p_filesz) {
				ph.p_flags = 0;
				memcpy(buf + at, &ph, sizeof ph);
				done = 1;
			}
		}
		if (!done)
			die("no PT_LOAD holds the program headers");
	} else {
		die("unknown mode");
	}

	write_file(argv[3], buf, size);
	free(buf);
	return 0;
}
