/* The one reader of an ELF object's dynamic tables, shared by the loader
 * (on mapped images), linkopt (on file buffers) and the test tools: the
 * dynamic section, the symbol count and geometry of .hash/.gnu.hash, and
 * the version definitions and requirements, for ELFCLASS32 and ELFCLASS64
 * alike. Every read goes through the reader's at(), which says whether
 * bytes at a link-time address are there; every size derived from the
 * file is computed in 64 bits, so no untrusted count can wrap a check on
 * either class. Freestanding: the loader compiles it before it has a libc
 * of its own, and plain host gcc builds it as a fuzz target. */
#ifndef QB_ELFVIEW_H
#define QB_ELFVIEW_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include "qbtable.h"

#ifndef DT_RELRSZ
#define DT_RELRSZ 35
#define DT_RELR 36
#define DT_RELRENT 37
#endif

/* An object as a reader sees it. at() returns the len bytes at link-time
 * address addr, or NULL unless all of them are readable; the pointer
 * need not be aligned. */
struct qb_elfview {
	const void *(*at)(const struct qb_elfview *v, uint64_t addr, uint64_t len);
	const void *ctx;     /* the reader's own: a loaded object, a file */
	int wide;            /* ELFCLASS64 */
};

static inline uint16_t qb_rd16(const void *p) { uint16_t v; __builtin_memcpy(&v, p, 2); return v; }
static inline uint32_t qb_rd32(const void *p) { uint32_t v; __builtin_memcpy(&v, p, 4); return v; }
static inline uint64_t qb_rd64(const void *p) { uint64_t v; __builtin_memcpy(&v, p, 8); return v; }

/* ------------------------------------------------------ dynamic section -- */

/* Values as found in the file: addresses are link-time, not yet biased. */
struct qb_dyninfo {
	size_t strtab, strsz, symtab, syment;
	size_t hash, gnu_hash;
	size_t rela, relasz, relaent, rel, relsz, relent;
	size_t relcount;   /* DT_RELACOUNT/DT_RELCOUNT: leading relative entries (a hint) */
	size_t jmprel, pltrelsz, pltrel;
	size_t relr, relrsz, relrent;
	size_t init, fini;
	size_t init_array, init_arraysz, fini_array, fini_arraysz;
	size_t preinit_array, preinit_arraysz;
	size_t soname, rpath, runpath;   /* string-table offsets */
	size_t flags, flags_1;
	size_t versym, verdef, verdefnum, verneed, verneednum;
	size_t syminfo, syminsz, syminent;
	size_t qb_table, qb_tablesz;
	size_t nneeded;
	size_t ndyn;                     /* entries before DT_NULL */
	unsigned have;                   /* QB_HAVE_* bits */
};

enum {
	QB_HAVE_SONAME = 1, QB_HAVE_RPATH = 2, QB_HAVE_RUNPATH = 4,
	QB_HAVE_INIT = 8, QB_HAVE_FINI = 16, QB_HAVE_TEXTREL = 32,
	QB_HAVE_DEBUG = 64, QB_HAVE_STRSZ = 128, QB_HAVE_SYMINSZ = 256,
	QB_HAVE_QB_TABLESZ = 512,
};

/* Decode at most max entries of a dynamic array of ELF class 'wide'
 * (1: 64-bit entries, 0: 32-bit). Returns 0, or -1 with *why set when the
 * array is not terminated or an entry is inconsistent. */
int qb_decode_dynamic(const void *dynv, size_t max, int wide,
	struct qb_dyninfo *out, const char **why);

/* ---------------------------------------------------------- hash tables -- */

/* The symbol hash tables of an object and the number of dynamic symbols
 * they imply (.dynsym has no size of its own at run time). */
struct qb_hashinfo {
	uint64_t nsyms;
	uint32_t sysv_nbucket, sysv_nchain;          /* DT_HASH */
	uint64_t sysv_size;  /* bytes of DT_HASH */
	uint32_t gnu_nbuckets, gnu_symoffset, gnu_bloomwords, gnu_shift;
	uint64_t gnu_bloom, gnu_buckets, gnu_chains; /* link-time addresses */
	uint64_t gnu_size;   /* bytes from DT_GNU_HASH to its last chain's end */
};

/* Check the tables at hash and gnu_hash (0: absent; at least one must be
 * there) and count the symbols: DT_HASH says it, DT_GNU_HASH needs a walk
 * to the end of its longest chain; with both, the larger count. Returns 0
 * or a reason. */
const char *qb_hashinfo(const struct qb_elfview *v, uint64_t hash, uint64_t gnu_hash,
	struct qb_hashinfo *out);

/* ------------------------------------------------------ symbol versions -- */

/* One version definition (DT_VERDEF) and the name of its first aux. */
struct qb_verdef_rec {
	uint16_t ndx, flags, cnt;
	uint32_t hash, name;   /* name: offset in the string table */
};

/* One version a reference requires (a DT_VERNEED aux) and its file. */
struct qb_vernaux_rec {
	uint16_t other, flags;
	uint32_t hash, name, file;   /* name, file: string-table offsets */
};

/* Walk at most num entries of a chain (and at most 0x8000, one per
 * version index) calling fn for each; fn returns 0 to go on, 1 to stop,
 * -1 to reject the entry. Returns 0 or a reason: a link outside the
 * object, or "bad version definition/requirement" for a rejected one. */
const char *qb_each_verdef(const struct qb_elfview *v, uint64_t addr, uint64_t num,
	int (*fn)(void *arg, const struct qb_verdef_rec *d), void *arg);
const char *qb_each_vernaux(const struct qb_elfview *v, uint64_t addr, uint64_t num,
	int (*fn)(void *arg, const struct qb_vernaux_rec *n), void *arg);

/* A reference's version requirement (from DT_VERNEED), or none. */
struct qb_verreq {
	const char *name;
	uint32_t hash;
	int is_hidden;
};

/* One defined version of an object, indexed by version index. */
struct qb_verdef_ent {
	const char *name;
	uint32_t hash;
	int base;   /* VER_FLG_BASE: the object's own name */
};

/* May a definition with versym value 'vs' (0 when the object has no
 * DT_VERSYM), whose version index resolves to 'def' (0 when the object
 * defines no such index), satisfy requirement 'req' (0: unversioned)? */
int qb_version_match(uint16_t vs, int has_versym, const struct qb_verdef_ent *def,
	const struct qb_verreq *req);

/* Does the standard lookup accept a definition with these fields (name
 * and version aside)? Defined, of a type and binding a reference binds
 * to, with a value unless it is TLS. The loader's rule; linkopt applies it
 * when it predicts the loader's answer. */
#define QB_OK_TYPES (1u << STT_NOTYPE | 1u << STT_OBJECT | 1u << STT_FUNC | \
	1u << STT_COMMON | 1u << STT_TLS | 1u << STT_GNU_IFUNC)
#define QB_OK_BINDS (1u << STB_GLOBAL | 1u << STB_WEAK | 1u << STB_GNU_UNIQUE)
static inline int qb_def_accepted(unsigned shndx, unsigned char info, uint64_t value)
{
	unsigned t = info & 0xf;
	return shndx != SHN_UNDEF && (QB_OK_TYPES >> t & 1) && (QB_OK_BINDS >> (info >> 4) & 1) &&
		(value || t == STT_TLS);
}

#endif
