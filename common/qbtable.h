/* The quickbind table format, shared by the loader and linkopt.
 * docs/FORMAT.md is the specification; this header must match it.
 * Kept dependency-free: the loader compiles it freestanding. */
#ifndef QB_QBTABLE_H
#define QB_QBTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <elf.h>

/* Dynamic tags (OS-specific range, not used by glibc, musl or binutils). */
#define DT_QB_TABLE     0x6fffe000 /* d_ptr: vaddr of struct qb_table_hdr */
#define DT_QB_TABLESZ   0x6fffe001 /* d_val: total size of the table in bytes */

/* Standard syminfo constants, in case an old <elf.h> lacks them. */
#ifndef DT_SYMINFO
#define DT_SYMINFO      0x6ffffeff
#endif
#ifndef DT_SYMINSZ
#define DT_SYMINSZ      0x6ffffdfe
#endif
#ifndef DT_SYMINENT
#define DT_SYMINENT     0x6ffffdff
#endif
#ifndef SYMINFO_BT_SELF
#define SYMINFO_BT_SELF   0xffff
#define SYMINFO_BT_PARENT 0xfffe
#endif
#define SYMINFO_BT_NONE   0xfffd
#ifndef SYMINFO_FLG_DIRECT
#define SYMINFO_FLG_DIRECT 0x0001
#endif
#define SYMINFO_FLG_NOEXTDIRECT 0x0020

/* Why an undefined symbol is not directly bound (exactly one bit set in
 * si_flags, together with si_boundto == SYMINFO_BT_NONE). */
#define QB_SYMINFO_VAGUE    0x1000 /* weak definition, C++ vague linkage, STB_GNU_UNIQUE */
#define QB_SYMINFO_MULTI    0x2000 /* defined by more than one library of the link */
#define QB_SYMINFO_NODIRECT 0x4000 /* interpose list, or defining library is no-direct */
#define QB_SYMINFO_NOTFOUND 0x8000 /* no DT_NEEDED library defines it */
#define QB_SYMINFO_REASONS  0xf000

#define QB_TABLE_MAGIC   "QBT1"
#define QB_TABLE_VERSION 1

/* qb_table_hdr.flags */
#define QB_TF_GNUHASH   0x01 /* gnu_off valid */
#define QB_TF_SYSVHASH  0x02 /* sysv_off valid */
#define QB_TF_DIRECT    0x04 /* DT_SYMINFO written by linkopt */
#define QB_TF_RELSORTED 0x08 /* non-PLT relocations grouped by symbol */
#define QB_TF_DYNSORTED 0x10 /* .dynsym/.dynstr sorted */
#define QB_TF_HINTS     0x20 /* hint_off and needed_off valid */
#define QB_TF_SELFID    0x40 /* self_id valid */
#define QB_TF_VALUES    0x80 /* value_off valid (with QB_TF_HINTS) */
#define QB_TF_SCOPE     0x100 /* definer_off valid (with QB_TF_HINTS, QB_TF_GNUHASH) */
#define QB_TF_NOEXTNONE 0x200 /* no DT_SYMINFO entry has SYMINFO_FLG_NOEXTDIRECT */
#define QB_TF_SCOPECOUNT 0x400 /* scoped_relocs valid (with QB_TF_SCOPE) */
/* 0x800, 0x1000, 0x2000: sections an earlier format had, ignored */
#define QB_TF_LAUNCH    0x4000 /* launch_off and nlaunch valid: a program's launch record */

/* Little-endian, 4-byte aligned, identical for ELFCLASS32 and ELFCLASS64. */
struct qb_table_hdr {
	char     magic[4];
	uint16_t version;
	uint16_t hdr_size;
	uint32_t flags;
	uint32_t nsyms;
	uint32_t gnu_off;  /* uint32_t gnu_hash[nsyms], entry 0 = 0 */
	uint32_t sysv_off; /* uint32_t sysv_hash[nsyms], entry 0 = 0 */
	/* Present when hdr_size >= QB_TABLE_HDR2_SIZE: */
	uint32_t hint_off;   /* uint32_t hint[nsyms]: definition index in the target */
	uint32_t needed_off; /* struct qb_needed_id needed[nneeded] */
	uint32_t nneeded;
	uint32_t reserved;
	uint32_t self_id[2]; /* identity of this object's symbol table, low word first */
	/* Present when hdr_size >= QB_TABLE_HDR3_SIZE: */
	uint32_t value_off;  /* uint32_t value[nsyms]: the hinted definition's st_value */
	uint32_t scoped_relocs; /* (QB_TF_SCOPECOUNT) relocations whose symbol has a definer */
	/* Present when hdr_size >= QB_TABLE_HDR4_SIZE: */
	uint32_t definer_off; /* uint32_t definer[nsyms]: 1 + index in needed[], 0 */
	uint32_t std_relocs;  /* relocations against symbols not bound directly */
	/* Present when hdr_size >= QB_TABLE_HDR5_SIZE: */
	uint32_t table_id[2]; /* identity of this table, low word first; 0: none */
	uint32_t reserved5[4]; /* 0 (an earlier format's) */
	/* Present when hdr_size >= QB_TABLE_HDR7_SIZE: */
	uint32_t launch_off;  /* (QB_TF_LAUNCH) struct qb_launch_obj launch[nlaunch] */
	uint32_t nlaunch;
	uint32_t names_off;   /* (QB_TF_LAUNCH) uint32_t names[nnames]: a filter of */
	uint32_t nnames;      /* the names it answers (a power of two words) */
};

#define QB_TABLE_HDR1_SIZE 24
#define QB_TABLE_HDR2_SIZE 48
#define QB_TABLE_HDR3_SIZE 56
#define QB_TABLE_HDR4_SIZE 64
#define QB_TABLE_HDR5_SIZE 80
#define QB_TABLE_HDR7_SIZE 104

/* needed[].dynidx of an object of the global scope that defines what a
 * reference not bound directly finds there (docs/FORMAT.md 2.4); an
 * identity of 0 names the object holding the table. */
#define QB_NEEDED_SCOPE 0xfffc

/* The identity a referencing object expects of one DT_NEEDED library. */
struct qb_needed_id {
	uint32_t dynidx;     /* index in .dynamic of the DT_NEEDED entry */
	uint32_t reserved;
	uint32_t id[2];      /* that library's self_id when linkopt ran */
};

/* The launch record of a program (docs/FORMAT.md 2.6): its start-up
 * load in global-scope order, the program first, and for each object the
 * standard lookup's answer to each symbol its relocations name, dense by
 * symbol index from 0. */
struct qb_launch_obj {
	uint32_t id[2];       /* identity: self_id, the loader's build, 0 for the program */
	uint32_t count;       /* symbols 0 to count - 1 are answered */
	uint32_t ans_off;     /* offset from the table of struct qb_launch_ans[count] */
};
struct qb_launch_ans {
	uint32_t def;         /* 1 + the definer's index in launch[], or one of: */
	uint32_t value;       /* the definition's st_value */
};
_Static_assert(sizeof(struct qb_launch_obj) == 16, "struct qb_launch_obj is not 16 bytes");
#define QB_LAUNCH_ASK  0          /* no answer recorded: the loader looks it up */
#define QB_LAUNCH_NONE 0xffffffff /* nothing defines it: a weak reference, value 0 */

/* Identity of a symbol table: FNV-1a (64-bit) over the bytes of .dynsym,
 * then .dynstr, then .gnu.version (absent: nothing). Equal identities mean
 * every symbol (name, value, size, type, binding, section, version) is as
 * linkopt saw it, so a recorded definition index is still right. */
uint64_t qb_symtab_id(const void *dynsym, size_t dynsym_size,
	const void *dynstr, size_t dynstr_size, const void *versym, size_t versym_size);

/* Non-zero when tab[0..size) is a table this code understands and that
 * describes exactly nsyms_expected dynamic symbols. */
int qb_table_valid(const void *tab, size_t size, uint32_t nsyms_expected);

/* Per-symbol hash arrays of a valid table, or NULL when absent. */
const uint32_t *qb_table_gnu(const void *tab);
const uint32_t *qb_table_sysv(const void *tab);
/* Hints and expected identities (QB_TF_HINTS), or NULL. */
const uint32_t *qb_table_hints(const void *tab);
const struct qb_needed_id *qb_table_needed(const void *tab, uint32_t *n);
/* The hinted definitions' values (QB_TF_VALUES), or NULL. */
const uint32_t *qb_table_values(const void *tab);
/* How many of the object's relocations name a symbol that is not bound
 * directly (header size 64): 1 with *n set, 0 when the table predates it. */
int qb_table_std_relocs(const void *tab, uint32_t *n);
/* How many relocations name a symbol with a scope definer: 1 with *n set
 * (QB_TF_SCOPECOUNT), 0 when the table does not say. */
int qb_table_scoped_relocs(const void *tab, uint32_t *n);
/* The definers in the global scope (QB_TF_SCOPE), or NULL. */
const uint32_t *qb_table_definers(const void *tab);
/* This object's identity (QB_TF_SELFID); 0 when absent. */
uint64_t qb_table_self_id(const void *tab);
/* The table's own identity (header size 80); 0 when absent. */
uint64_t qb_table_table_id(const void *tab);
/* A program's launch record (QB_TF_LAUNCH), or NULL; *names, *nwords:
 * its filter of the names it answers. */
const struct qb_launch_obj *qb_table_launch(const void *tab, uint32_t *n, const uint32_t **names,
	uint32_t *nwords);

/* The filter of a record's names: two bits per GNU hash value, each the
 * top bits of a product (the hash's low bits barely mix), as many as
 * number the filter's 32 * nwords bits (nwords a power of two). */
static inline uint32_t qb_names_bit(uint32_t h, int second, uint32_t nwords)
{
	return (h * (second ? 0x85ebca6bu : 0x9e3779b1u)) >> (27 - __builtin_ctz(nwords));
}
static inline int qb_names_maybe(const uint32_t *f, uint32_t nwords, uint32_t h)
{
	uint32_t a = qb_names_bit(h, 0, nwords), b = qb_names_bit(h, 1, nwords);
	return (f[a / 32] >> (a % 32) & 1) && (f[b / 32] >> (b % 32) & 1);
}
/* The identity of a loader build: FNV-1a (64-bit) over its GNU build-id
 * note's descriptor, 0 written as 1. */
uint64_t qb_build_id(const void *desc, size_t size);
/* The identity a table of size bytes has: FNV-1a over its bytes, its
 * table_id field taken as 0 (for linkopt: the loader only compares). */
uint64_t qb_table_compute_id(const void *tab, size_t size);

#endif
