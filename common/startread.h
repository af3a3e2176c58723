/* What start-up reads of a shared object, and the record of a program's
 * closure that lets the loader ask for all of it at once
 * (docs/FORMAT.md 6). Shared by the loader and linkopt, so that a
 * recorded range is the one the loader would compute (less, in an
 * optimized library, the names start-up does not read); freestanding. */
#ifndef QB_STARTREAD_H
#define QB_STARTREAD_H

#include <stddef.h>
#include <stdint.h>

#define DT_QB_CLOSURE   0x6fffe002 /* d_ptr: vaddr of struct qb_closure_hdr */
#define DT_QB_CLOSURESZ 0x6fffe003 /* d_val: size of the record in bytes */
#define QB_CLOSURE_MAGIC "QBC1"

/* Little-endian, 4-byte aligned, the same for both ELF classes: the
 * header, then libs[nlibs], ranges[nranges], then strsz bytes of paths. */
struct qb_closure_hdr {
	char magic[4];
	uint32_t nlibs, nranges, strsz;
};

struct qb_closure_lib {
	uint32_t path;       /* offset in the paths of a NUL-terminated path */
	uint32_t first, n;   /* its ranges: ranges[first .. first + n) */
	uint32_t reserved;   /* 0 */
	uint32_t size[2];    /* the file's size, low word first */
};

struct qb_closure_range {
	uint32_t off, len;   /* bytes of the file */
};

/* One program header, as the range rule reads it. */
struct qb_seg {
	uint32_t type;
	uint64_t off, filesz;
};

struct qb_range {
	uint64_t off, len;
};

/* Most ranges the rule gives for one file, and the most it asks of one
 * segment. */
#define QB_START_RANGES 8
#define QB_RANGE_CAP (1u << 20)

/* The byte ranges of a file that start-up reads: every loadable
 * segment's bytes in the file, each at most QB_RANGE_CAP. They hold what
 * loading reads and writes (headers, dynamic tables, relocations, the
 * pages relocations write, linkopt's tables) and the code and read-only
 * data start-up runs and reads, which the kernel's read-around fetches
 * around the first fault anyway; never a section that no segment loads
 * (symbol table, debugging information), which read-around would fetch
 * too. In offset order, merged where less than a page apart. Returns how
 * many (at most QB_START_RANGES). */
size_t qb_start_ranges(const struct qb_seg *seg, size_t n, struct qb_range *out);

/* Is rec[0..size) a closure record whose every library, range and path
 * lies inside it? */
int qb_closure_valid(const void *rec, size_t size);

#endif
