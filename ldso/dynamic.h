/* Decoding of a .dynamic array into the fields the loader uses, and the
 * symbol-version rules. Pure functions: unit-tested on the host. */
#ifndef QB_DYNAMIC_H
#define QB_DYNAMIC_H

#include <stddef.h>
#include <stdint.h>
#include <elf.h>
#include "qbtable.h"

#ifndef DT_RELRSZ
#define DT_RELRSZ 35
#define DT_RELR 36
#define DT_RELRENT 37
#endif

/* Values as found in the file: addresses are link-time, not yet biased. */
struct qb_dyninfo {
	size_t strtab, strsz, symtab, syment;
	size_t hash, gnu_hash;
	size_t rela, relasz, relaent, rel, relsz, relent;
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
	unsigned have;                   /* QB_HAVE_* bits */
};

enum {
	QB_HAVE_SONAME = 1, QB_HAVE_RPATH = 2, QB_HAVE_RUNPATH = 4,
	QB_HAVE_INIT = 8, QB_HAVE_FINI = 16, QB_HAVE_TEXTREL = 32,
	QB_HAVE_DEBUG = 64,
};


/* Decode at most max entries of a dynamic array of ELF class 'wide'
 * (1: 64-bit entries, 0: 32-bit). Returns 0, or -1 with *why set when the
 * array is not terminated or an entry is inconsistent. */
int qb_decode_dynamic(const void *dynv, size_t max, int wide,
	struct qb_dyninfo *out, const char **why);

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

#endif
