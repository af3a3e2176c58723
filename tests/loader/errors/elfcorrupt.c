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
 *                              is mapped without read permission
 * and, for ELF32 and ELF64 alike:
 *   elfcorrupt relro IN OUT    PT_GNU_RELRO covers addresses 0 to 0x100000
 *   elfcorrupt tlsmemsz IN OUT PT_TLS's p_memsz is 16 bytes short of the
 *                              whole address space
 *   elfcorrupt gnubucket IN OUT every non-empty DT_GNU_HASH bucket holds
 *                              0x80000000 (sizes computed from it wrap a
 *                              32-bit address space) */
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

/* Program header fields of either class, at their offsets in the file. */
struct anyph { long at; uint32_t type; uint64_t vaddr, offset, filesz; };

static int is64;

static int phdr_get(const unsigned char *buf, long size, int i, struct anyph *o)
{
	uint64_t phoff = is64 ? ((const Elf64_Ehdr *)buf)->e_phoff : ((const Elf32_Ehdr *)buf)->e_phoff;
	int phnum = is64 ? ((const Elf64_Ehdr *)buf)->e_phnum : ((const Elf32_Ehdr *)buf)->e_phnum;
	size_t ent = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (i >= phnum || phoff + (i + 1) * ent > (uint64_t)size)
		return 0;
	o->at = (long)(phoff + i * ent);
	if (is64) {
		const Elf64_Phdr *p = (const Elf64_Phdr *)(buf + o->at);
		*o = (struct anyph){o->at, p->p_type, p->p_vaddr, p->p_offset, p->p_filesz};
	} else {
		const Elf32_Phdr *p = (const Elf32_Phdr *)(buf + o->at);
		*o = (struct anyph){o->at, p->p_type, p->p_vaddr, p->p_offset, p->p_filesz};
	}
	return 1;
}

/* Set a program header's p_vaddr (when vaddr != -1) and p_memsz. */
static void phdr_set(unsigned char *buf, const struct anyph *ph, uint64_t vaddr, uint64_t memsz)
{
	if (is64) {
		Elf64_Phdr *p = (Elf64_Phdr *)(buf + ph->at);
		if (vaddr != (uint64_t)-1)
			p->p_vaddr = vaddr;
		p->p_memsz = memsz;
	} else {
		Elf32_Phdr *p = (Elf32_Phdr *)(buf + ph->at);
		if (vaddr != (uint64_t)-1)
			p->p_vaddr = (Elf32_Addr)vaddr;
		p->p_memsz = (Elf32_Word)memsz;
	}
}

static struct anyph find_phdr(const unsigned char *buf, long size, uint32_t type)
{
	struct anyph ph;
	for (int i = 0; phdr_get(buf, size, i, &ph); i++)
		if (ph.type == type)
			return ph;
	die("no program header of the type to corrupt");
	return ph;
}

static long any_vaddr_to_off(const unsigned char *buf, long size, uint64_t va)
{
	struct anyph ph;
	for (int i = 0; phdr_get(buf, size, i, &ph); i++)
		if (ph.type == PT_LOAD && va >= ph.vaddr && va - ph.vaddr < ph.filesz)
			return (long)(va - ph.vaddr + ph.offset);
	die("address not in the file");
	return -1;
}

static void corrupt_gnubucket(unsigned char *buf, long size)
{
	struct anyph dp = find_phdr(buf, size, PT_DYNAMIC);
	size_t dent = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	uint64_t gh = 0;
	for (uint64_t at = dp.offset; at + dent <= dp.offset + dp.filesz && at + dent <= (uint64_t)size; at += dent) {
		int64_t tag = is64 ? ((Elf64_Dyn *)(buf + at))->d_tag : ((Elf32_Dyn *)(buf + at))->d_tag;
		uint64_t val = is64 ? ((Elf64_Dyn *)(buf + at))->d_un.d_val : ((Elf32_Dyn *)(buf + at))->d_un.d_val;
		if (tag == DT_NULL)
			break;
		if (tag == DT_GNU_HASH)
			gh = val;
	}
	if (!gh)
		die("no DT_GNU_HASH");
	long off = any_vaddr_to_off(buf, size, gh);
	uint32_t hdr[4];
	if (off + 16 > size)
		die("DT_GNU_HASH outside the file");
	memcpy(hdr, buf + off, sizeof hdr);
	long b = off + 16 + (long)hdr[2] * (is64 ? 8 : 4);
	if (b + 4l * hdr[0] > size)
		die("DT_GNU_HASH buckets outside the file");
	int changed = 0;
	for (uint32_t i = 0; i < hdr[0]; i++) {
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
	is64 = buf[EI_CLASS] == ELFCLASS64;
	if (!strcmp(argv[1], "relro")) {
		phdr_set(buf, (struct anyph[]){find_phdr(buf, size, PT_GNU_RELRO)}, 0, 0x100000);
		goto write;
	} else if (!strcmp(argv[1], "tlsmemsz")) {
		phdr_set(buf, (struct anyph[]){find_phdr(buf, size, PT_TLS)}, (uint64_t)-1,
			 is64 ? 0xfffffffffffffff0ull : 0xfffffff0u);
		goto write;
	} else if (!strcmp(argv[1], "gnubucket")) {
		corrupt_gnubucket(buf, size);
		goto write;
	}
	if (!is64)
		die("this mode needs an ELF64 input");
	memcpy(&eh, buf, sizeof eh);

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

write:
	write_file(argv[3], buf, size);
	free(buf);
	return 0;
}
