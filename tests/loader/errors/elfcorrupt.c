/* Writes a corrupted copy of a 64-bit ELF file, for the loader's
 * malformed-input tests:
 *   elfcorrupt phoff  IN OUT   e_phoff points past the end of the file
 *   elfcorrupt filesz IN OUT   the last PT_LOAD's p_filesz (and p_memsz)
 *                              reach 64 KiB past the end of the file */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *m)
{
	fprintf(stderr, "elfcorrupt: %s\n", m);
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: elfcorrupt phoff|filesz IN OUT");
	FILE *f = fopen(argv[2], "rb");
	if (!f)
		die("cannot open input");
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	unsigned char *buf = malloc(size);
	if (!buf || fread(buf, 1, size, f) != (size_t)size)
		die("cannot read input");
	fclose(f);

	Elf64_Ehdr eh;
	if (size < (long)sizeof eh)
		die("input too small");
	memcpy(&eh, buf, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		die("input is not ELF64");

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
	} else {
		die("unknown mode");
	}

	f = fopen(argv[3], "wb");
	if (!f || fwrite(buf, 1, size, f) != (size_t)size || fclose(f))
		die("cannot write output");
	free(buf);
	return 0;
}
