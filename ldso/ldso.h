/* The loader's central data: one struct dso per loaded object, the global
 * list in load order, and the interfaces between the loader's modules. */
#ifndef QB_LDSO_H
#define QB_LDSO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <link.h>
#include "arch.h"
#include "musl.h"
#include "elfview.h"
#include "switches.h"

#define hidden QB_HIDDEN
#define QB_VERSION "0.1.0"

#if QB_ELFCLASS == ELFCLASS64
#define QB_ELF(t) Elf64_##t
#define QB_ELF_ST(f) ELF64_ST_##f
#else
#define QB_ELF(t) Elf32_##t
#define QB_ELF_ST(f) ELF32_ST_##f
#endif
typedef QB_ELF(Ehdr) Ehdr; typedef QB_ELF(Phdr) Phdr; typedef QB_ELF(Sym) Sym;
typedef QB_ELF(Rela) Rela; typedef QB_ELF(Rel) Rel; typedef QB_ELF(Dyn) Dyn;
typedef QB_ELF(Verdef) Verdef; typedef QB_ELF(Syminfo) Syminfo;
#define ST_TYPE QB_ELF_ST(TYPE)
#define ST_BIND QB_ELF_ST(BIND)

/* A file's identity: device, inode, size, modification and change times
 * (nanoseconds). The same identity: the same file, unchanged. */
struct qb_fileid {
	uint64_t dev, ino, size, mtime, ctime;
};

/* Room for the extensions' per-object state, one slot each (ext.h). */
enum { QB_SLOT_FAST, QB_EXT_SLOTS };
#define QB_EXT_SLOT_BYTES 256

struct dso {
	/* First: the public struct link_map view (l_addr, l_name, l_ld,
	 * l_next, l_prev) that debuggers and dlinfo users read. */
	unsigned char *base;
	char *name;
	size_t *dynv;
	struct dso *next, *prev;

	struct qb_dyninfo dyn;
	Phdr *phdr;
	size_t phnum, nsyms;
	Sym *syms;
	const char *strings;
	uint32_t *hashtab;
	/* the SysV hash of each symbol's name, when an extension knows them:
	 * a DT_HASH chain walk compares it before the name */
	const uint32_t *sym_sysv;
	uint16_t *versym;
	/* DT_GNU_HASH, decoded once (gh_bloom == 0: use DT_HASH) */
	const size_t *gh_bloom;
	const uint32_t *gh_buckets, *gh_chain;
	uint32_t gh_nbuckets, gh_bloom_mask, gh_shift, gh_symoffset;
	struct qb_verdef_ent *vdefs, *vreqs;  /* by version index */
	size_t nvdefs, nvreqs;

	/* PT_DYNAMIC's size (objects we map), the whole reserved mapping (0
	 * for kernel-mapped), the link-time address range of the PT_LOADs */
	size_t dyn_size, map_len, vmin, vmax;
	unsigned char *map;
	struct qb_fileid id;    /* its file's (map.c) */
	const char *soname, *shortname;  /* shortname: the name it was asked for */
	char *rpath, *runpath;  /* expanded lazily: raw dynamic strings */
	struct dso **deps, *needed_by;
	size_t ndeps;
	struct qb_tls_module tls;
	size_t tls_id, relro_start, relro_end;
	/* writable ranges: where relocations may write (patchelf adds one
	 * writable segment per edit, linkopt one) */
	size_t wr_lo[8], wr_hi[8];
	unsigned char nwr;
	/* the reverse of the order constructors ran in; the thread running
	 * its constructors (initfini.c) */
	struct dso *fini_next;
	void *ctor_visitor;

	unsigned char is_ldso, is_main, relocated, constructed, deps_loaded, mark;
	/* preloaded: by LD_PRELOAD or --preload; global: in the global scope;
	 * runtime: loaded by dlopen, may be unloaded; unloading: its
	 * destructors are running, unload once */
	unsigned char preloaded, global, runtime, nodelete, unloading;
	size_t seq;                 /* load order (objindex.c) */
	struct dso *gnext;          /* next in the global scope (gscope.c) */
	size_t refcnt;              /* dlopen handles not yet closed */
	void *owned;                /* loader memory freed with the object */
	struct dso **scope;         /* dlopen root: itself and its deps, BFS */
	size_t nscope;
	struct dso *reloc_root;     /* whose local scope relocations also see */

	/* the extensions' per-object state (ldso/ext/ext.h): zeroed with
	 * the object, never read by the core */
	union {
		max_align_t align;
		unsigned char bytes[QB_EXT_SLOT_BYTES];
	} ext[QB_EXT_SLOTS];
};

struct symdef {
	Sym *sym;
	struct dso *dso;
};

/* Process-wide state of the loader. */
struct qb_state {
	struct dso *head, *tail;   /* every object, in load order */
	struct dso *gtail;         /* the global scope's last (gscope.c) */
	struct dso *ldso, *main;
	struct qb_env env;         /* the LD_ variables (switches.h) */
	int secure;
	int unload;                /* LD_DLCLOSE=unload: dlclose unloads */
	int failed;                /* errors were reported: exit 127 */
	int list_mode;             /* --list / ldd: report, do not run */
	int started;               /* the program runs: start-up is over */
	int exiting;               /* destructors run: no constructor starts */
	size_t tls_cnt, tls_offset, tls_align;
	struct qb_tls_module *tls_tail;
	size_t ndso;
	size_t adds, subs;         /* objects ever loaded / unloaded */
	size_t static_tls_cnt;     /* modules in every thread's static area */
	char errbuf[512];
	unsigned debug;            /* QB_DBG_* bits from LD_DEBUG */
	size_t verify_diffs;       /* LD_DIRECT_VERIFY: answers that differed */
	struct qb_stats {
		size_t lookups, probes, strcmps, relocs, cache_hits, hashed;
		size_t prehashed, hinted, scoped, recorded;  /* for the extension that prepared them */
		size_t bykind[RK_TLSDESC + 1];
		uint64_t reloc_ns;
	} stats;
};

enum {
	QB_DBG_LIBS = 1, QB_DBG_BINDINGS = 2, QB_DBG_STATS = 4, QB_DBG_DIRECT = 8,
	QB_DBG_ALL = 15,
};

extern struct qb_state qb hidden;
extern const unsigned char __ehdr_start[] hidden;  /* the loader's own */

/* error.c: qb_error never returns; it unwinds to the innermost qb_try,
 * which returns -1 with the message in qb.errbuf. qb_keep_going runs fn
 * under qb_try in list mode only, reporting a failure and going on.
 * qb_error_listed is qb_error but in list mode, where it reports a
 * failure after which the work still means something (a symbol not
 * found) and returns, so every such failure is listed, as by musl's ldd. */
hidden _Noreturn void qb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
hidden void qb_error_listed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
hidden _Noreturn void qb_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
hidden int qb_try(void (*fn)(void *), void *arg);
hidden void qb_keep_going(void (*fn)(void *), void *arg);

/* arena.c: the loader's own memory, zeroed */
hidden void *qb_calloc(size_t n, size_t each);
static inline void *qb_malloc(size_t n) { return qb_calloc(n, 1); }
hidden void *qb_realloc(void *p, size_t n);
hidden void qb_free(void *p);
hidden size_t qb_arena_taken(const void **region);  /* bytes taken, *region where */

/* Room for element i of an array of *cap elements of `each` bytes: grown
 * to twice as many at least, the new ones zeroed. Returns the array, or 0
 * when out of memory with the old one as it was. */
static inline void *qb_grow(void *v, size_t *cap, size_t i, size_t each)
{
	if (i < *cap)
		return v;
	size_t n = 2 * *cap > i ? 2 * *cap : i + 1;
	unsigned char *nv = n <= (size_t)-1 / each ? qb_realloc(v, n * each) : 0;
	if (nv) {
		memset(nv + *cap * each, 0, (n - *cap) * each);
		*cap = n;
	}
	return nv;
}

/* Does the process run under valgrind? Its request 0x1001 asks, through
 * the architecture's preamble; a processor leaves the answer at 0. */
static inline int qb_under_valgrind(void)
{
	volatile unsigned long req[6] = { 0x1001, 0, 0, 0, 0, 0 };
	unsigned long res = 0;
	__asm__ volatile(QB_VALGRIND_REQUEST : "=d"(res) : "a"(&req[0]), "0"(res) : "cc", "memory");
	return res != 0;
}

/* dso.c */
hidden const char *qb_dso_decode(struct dso *p);
hidden const char *qb_dso_describe(struct dso *p);
hidden void qb_dso_append(struct dso *p);
static inline void *qb_laddr(const struct dso *p, size_t vaddr) { return p->base + vaddr; }

/* May relocations write [vaddr, vaddr+len)? Inside a writable segment, or
 * anywhere in the image of an object with text relocations. The loader
 * itself is trusted. */
static inline int qb_writable(const struct dso *p, size_t vaddr, size_t len)
{
	if (p->is_ldso)
		return 1;
	for (unsigned i = 0; i < p->nwr; i++)
		if (vaddr >= p->wr_lo[i] && vaddr <= p->wr_hi[i] && len <= p->wr_hi[i] - vaddr)
			return 1;
	return 0;
}

/* Is [vaddr, vaddr+len) inside one loadable segment of p with the flags
 * `need` (not in a gap between segments, which stays unmapped)? */
static inline int qb_in_segment(const struct dso *p, size_t vaddr, size_t len, unsigned need)
{
	for (size_t i = 0; i < p->phnum; i++) {
		const Phdr *ph = &p->phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & need) == need && vaddr >= ph->p_vaddr &&
		    vaddr - ph->p_vaddr <= ph->p_memsz && len <= ph->p_memsz - (vaddr - ph->p_vaddr))
			return 1;
	}
	return 0;
}

/* In one readable segment: only the loader itself is trusted; a program
 * the kernel mapped is checked like any library. */
static inline int qb_in_image(const struct dso *p, size_t vaddr, size_t len)
{
	return p->is_ldso || qb_in_segment(p, vaddr, len, PF_R);
}

/* Is vaddr inside an executable segment of p? An IFUNC resolver is
 * called before the program runs: a bad file must not make the loader
 * jump anywhere else. */
static inline int qb_in_code(const struct dso *p, size_t vaddr)
{
	return qb_in_segment(p, vaddr, 1, PF_X);
}

/* version.c */
hidden const char *qb_build_verdefs(struct dso *p, const struct qb_elfview *v);
hidden int qb_verreq_of(struct dso *p, size_t i, struct qb_verreq *out);

/* map.c; qb_check_phdrs also serves the program the kernel mapped */
hidden void qb_note_phdr(struct dso *p, const Phdr *ph);
hidden const char *qb_check_phdrs(struct dso *p, size_t fsize, size_t page, size_t *align);
struct stat;
hidden struct dso *qb_map_file(int fd, const struct stat *st, const char *path, int allow_exec,
	const char **why);
hidden void qb_fileid_of(const struct stat *st, struct qb_fileid *id);

/* search.c */
hidden struct dso *qb_load_library(const char *name, struct dso *needed_by, const char **why);
hidden struct dso *qb_find_library(const char *name);
hidden void qb_load_deps(struct dso *p);
hidden void qb_load_preloads(const char *list);
hidden const char *qb_exe_path(void);

/* lookup.c */
struct qb_symreq {
	const char *name;
	uint32_t gnu_h, sysv_h;
	int have_sysv;
	const struct qb_verreq *ver;
	size_t nlen;    /* strlen(name) + 1 when hashing found it, else 0 */
};
hidden void qb_symreq_init(struct qb_symreq *r, const char *name, const struct qb_verreq *ver);
hidden Sym *qb_lookup_in(struct dso *p, struct qb_symreq *r);
hidden struct symdef qb_lookup(struct qb_symreq *r, struct dso *skip, struct dso *root);
hidden struct symdef qb_lookup_scope(struct dso **v, size_t n, struct qb_symreq *r);
hidden struct symdef qb_walk_global(struct dso *from, struct qb_symreq *r, struct dso *skip);
hidden struct symdef qb_lookup_local(struct dso *root, struct qb_symreq *r, struct dso *skip);
hidden struct symdef qb_lookup_std(struct dso *from, struct qb_symreq *r, struct dso *skip,
	struct dso *root);

/* The one DT_RELR decoder (stage 1 and reloc.c): an address word (even)
 * relocates the word there, a bitmap (odd) bit i the i-th word after the
 * last one covered. Inlined, and with p == 0 checking nothing, stage 1
 * can run it; with p, every place must be writable: 1 at the first one
 * that is not. */
static inline __attribute__((always_inline)) int qb_relr(const struct dso *p, unsigned char *base,
	const size_t *r, size_t n)
{
	for (size_t *next = 0; n; n--, r++) {
		int odd = *r & 1;
		size_t bits = odd ? *r >> 1 : 1;
		if (!odd)
			next = (size_t *)(base + *r);
		else if (!next)
			continue;
		for (size_t *at = next; bits; at++, bits >>= 1)
			if (bits & 1) {
				if (p && !qb_writable(p, (size_t)((unsigned char *)at - base), sizeof *at))
					return 1;
				*at += (size_t)base;
			}
		next += odd ? 8 * sizeof(size_t) - 1 : 1;
	}
	return 0;
}

/* stage1.c: a REL symbolic relocation's addend in the loader itself, as
 * stage 1 found it before applying the relocation. */
hidden size_t qb_ldso_rel_addend(size_t off);

/* reloc.c */
hidden void qb_relocate(struct dso *p, int lazy_ok);
hidden void qb_retry_lazy(void);
hidden void qb_drop_lazy(const struct dso *p);
hidden void qb_relocate_all(void);
hidden void qb_protect_relro(struct dso *p);

/* tls.c */
hidden void qb_tls_register(struct dso *p);
hidden void qb_tls_install(int early);
hidden void qb_tls_init_main(void);
hidden void qb_tls_rollback(void);
hidden int qb_tls_commit_runtime(void);
hidden void *qb_tls_block(struct dso *p);

/* initfini.c */
hidden void qb_queue_init(int argc, char **argv, char **envp);
hidden void qb_ctor_queue(struct dso *root, struct dso ***q, size_t *n);
hidden void qb_run_ctors(struct dso **q, size_t n);
hidden void qb_run_fini(struct dso *p);

/* lddebug.c */
hidden void qb_debug_setup(const char *spec, const char *output);
hidden void qb_dbg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
hidden uint64_t qb_now_ns(void);
hidden void qb_debug_stats(const char *when);

/* rdebug.c */
hidden void qb_debug_init(void);
hidden void qb_debug_change(int state);

/* dlapi.c */
hidden struct dso *qb_dso_of_addr(const void *addr);
hidden struct dso *qb_valid_handle(void *h);

/* May p's DT_GNU_HASH hold a name with hash h? Its bloom filter's two
 * bits; "no" is certain (p must have a GNU hash table). */
static inline int qb_gnu_bloom_maybe(const struct dso *p, uint32_t h)
{
	const size_t bits = 8 * sizeof(size_t);
	size_t word = p->gh_bloom[(h / bits) & p->gh_bloom_mask];
	size_t mask = (size_t)1 << (h % bits) | (size_t)1 << ((h >> p->gh_shift) % bits);
	return (word & mask) == mask;
}

/* txn.c: the changes a dlopen makes, undone in one place. */
hidden int qb_txn_begin(void);
hidden void qb_txn_commit(void);
hidden void qb_txn_abort(void);
hidden void qb_txn_flag(unsigned char *field, unsigned char v);
hidden void qb_txn_save_word(size_t *where);

/* forget.c: an object leaves the loader */
hidden void qb_forget_object(struct dso *p);
hidden void qb_forget_since(struct dso *old_tail);
hidden void qb_unmap_flush(void);

/* lock.c */
hidden void qb_lock(void);
hidden void qb_unlock(void);
hidden void qb_lock_reset(void);

/* objindex.c: the loaded objects by name and by file */
hidden void qb_index_add(struct dso *p);
hidden void qb_index_remove(struct dso *p);
hidden struct dso *qb_find_loaded(const char *name);
hidden struct dso *qb_find_file(uint64_t dev, uint64_t ino);

/* vdso.c */
hidden void qb_vdso_attach(size_t ehdr_addr);

/* gscope.c: the global scope, from qb.head through gnext, in the order
 * objects joined it. */
hidden void qb_global_join(struct dso *p);
hidden void qb_global_leave(struct dso *p);
hidden void qb_build_scope(struct dso *p);

#endif
