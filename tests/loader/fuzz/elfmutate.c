/* elfmutate SEED IN OUT: writes IN with a few bytes changed in the parts a
 * dynamic loader interprets (ELF and program headers, dynamic section,
 * symbol, string, hash, version and relocation tables, and linkopt's
 * syminfo and quickbind tables when present), chosen from SEED.
 * Code and data bytes are left alone: the fuzz suite tests the loader,
 * not what a program does with corrupted code. ELF32 and ELF64. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../elffile.h"

static void die(const char *m)
{
	fprintf(stderr, "elfmutate: %s\n", m);
	exit(2);
}

static uint64_t state;
static uint64_t rnd(void)
{
	state = state * 6364136223846793005ull + 1442695040888963407ull;
	return state >> 17;
}

struct region { size_t off, len; };

int main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: elfmutate SEED IN OUT");
	state = strtoull(argv[1], 0, 10) * 0x9e3779b97f4a7c15ull + 1;
	long size;
	unsigned char *buf = read_elf(argv[2], &size);
	static struct qb_elfbuf file;
	static Elf64_Phdr phdrs[256];
	open_elfbuf(&file, buf, size, phdrs, sizeof phdrs / sizeof *phdrs);
	const Elf64_Ehdr eh = file.eh;
	int wide = file.view.wide;
	size_t shent = wide ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	size_t phent = wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (eh.e_shentsize != shent || !eh.e_shnum || eh.e_shstrndx >= eh.e_shnum ||
	    !qb_in_file((uint64_t)size, eh.e_shoff, (uint64_t)eh.e_shnum * shent))
		die("no section headers");

	struct region reg[64];
	size_t nreg = 0, total = 0;
	reg[nreg++] = (struct region){ 0, wide ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr) };
	reg[nreg++] = (struct region){ eh.e_phoff, (size_t)eh.e_phnum * phent };
	Elf64_Shdr shstr;
	qb_elfbuf_shdr(buf, wide, eh.e_shoff, eh.e_shstrndx, &shstr);
	for (unsigned i = 0; i < eh.e_shnum && nreg < 64; i++) {
		Elf64_Shdr sh;
		qb_elfbuf_shdr(buf, wide, eh.e_shoff, i, &sh);
		const char *name = shstr.sh_offset + sh.sh_name < (uint64_t)size ?
			(const char *)buf + shstr.sh_offset + sh.sh_name : "";
		int take = sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_DYNAMIC ||
			   sh.sh_type == SHT_SUNW_syminfo || !strcmp(name, ".qb.table") ||
			   sh.sh_type == SHT_HASH || sh.sh_type == SHT_GNU_HASH ||
			   sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL || sh.sh_type == SHT_GNU_versym ||
			   sh.sh_type == SHT_GNU_verdef || sh.sh_type == SHT_GNU_verneed ||
			   (sh.sh_type == SHT_STRTAB && (sh.sh_flags & SHF_ALLOC));
		if (take && sh.sh_size && qb_in_file((uint64_t)size, sh.sh_offset, sh.sh_size))
			reg[nreg++] = (struct region){ sh.sh_offset, sh.sh_size };
	}
	for (size_t i = 0; i < nreg; i++)
		total += reg[i].len;

	static const uint64_t interesting[] = {
		0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0x80000000u,
		0xffffffffu, 0x100000000ull, 0x7fffffffffffffffull, ~0ull, 4096, 65536,
	};
	unsigned n = 1 + rnd() % 4;
	for (unsigned k = 0; k < n; k++) {
		size_t at = rnd() % total, r = 0;
		while (at >= reg[r].len)
			at -= reg[r++].len;
		size_t off = reg[r].off + at;
		unsigned width = (unsigned[]){ 1, 2, 4, 8 }[rnd() % 4];
		if (off + width > (size_t)size)
			width = 1;
		uint64_t v = rnd() % 3 ? interesting[rnd() % (sizeof interesting / sizeof *interesting)] : rnd();
		if (rnd() % 4 == 0) {  /* nudge the current value instead */
			uint64_t cur = 0;
			memcpy(&cur, buf + off, width);
			v = cur + (rnd() % 2 ? 1 : -1) * (1 + rnd() % 64);
		}
		memcpy(buf + off, &v, width);
	}

	write_file(argv[3], buf, size);
	return 0;
}
