/* Placing new tables in an ELF file: rewrite in place when a table of the
 * same size already exists, otherwise append one PT_LOAD segment. */
#ifndef LINKOPT_LAYOUT_H
#define LINKOPT_LAYOUT_H

#include "elffile.h"

struct blob {
	const char *secname;
	uint32_t shtype;
	uint32_t entsize, align;
	int64_t ptag, stag;     /* dynamic tags holding its address and size */
	int link_dynsym, info_dynamic;
	const uint8_t *data;
	size_t len;
	uint64_t cursize;       /* size of the existing table when stag is 0 */
	/* filled by layout_apply */
	int append;
	uint64_t off, va;
	int hadold;
	uint64_t oldva;
};

struct fixed_tag { int64_t tag; uint64_t val; };

/* Produces the new file image in *out (malloc'd). */
int layout_apply(struct elf *e, struct blob *b, unsigned nb, const struct fixed_tag *ft, unsigned nft,
		 uint8_t **out, size_t *outlen);

#endif
