/* Finding an object's DT_NEEDED libraries the way the loader does
 * (common/libsearch.c, shared with it), and
 * loading its whole dependency closure in breadth-first (load) order. */
#ifndef LINKOPT_SEARCH_H
#define LINKOPT_SEARCH_H

#include "elffile.h"
#include "libsearch.h"
#include "objcache.h"

struct search_opts {
	const char *root;      /* --root / --sysroot prefix, or NULL */
	const char **ldirs;    /* -L directories, searched first */
	unsigned nldirs;
	const char *env_path;  /* LD_LIBRARY_PATH, after them, as the run would */
	/* The objects above the file on the loader's needed-by chain (for a
	 * library: the object that loads it, then the one that loaded that,
	 * up to the program; for a dlopened plugin: the program). Their
	 * RPATH/RUNPATH are searched after the file's own, as the loader
	 * does. Empty: the file is the top of its chain. */
	const struct qb_chain_link *above;
	unsigned nabove;
	/* Programs the files are optimized for (--app, or executables among
	 * the inputs): a library one of them loads is resolved and bound as
	 * the loader loads that program; a file none of them loads, as a
	 * module each of them dlopens (tools/linkopt/appview.c). */
	const char *const *apps;
	unsigned napps;
	int verbose;           /* -v: say which programs' loads count */
};

struct lib {
	char *path;
	struct elf e;
	int needed_by;        /* index of the first object that needs it, -1 for the object */
	int dynidx;           /* index of the DT_NEEDED entry in the object's .dynamic, -1 if indirect */
	unsigned long long dev, ino;
	char *shortname;      /* the DT_NEEDED name it was loaded by (NULL for libs[0]) */
	int *dep;             /* dep[k]: closure index of the library DT_NEEDED entry k names, -1 */
	struct cobj *obj;     /* the run's object e copies (tools/linkopt/objcache.h); NULL for libs[0] */
};

struct appview;
struct closure_ix;

struct closure {
	struct lib *libs;     /* libs[0] is the object itself (elf not owned) */
	unsigned n, cap;
	int musl;             /* the object is musl-built */
	int secure;           /* a set-id file: the loader's secure-mode rules */
	int borrowed;         /* libs[1..n) belong to views[0] */
	/* The loads of the programs given that load the object (or dlopen
	 * it): bind_compute checks every direct binding against each. Made
	 * and freed by the application view (appview.h), which builds on
	 * this search; the search itself only carries them. */
	struct appview **views;
	unsigned nviews;
	struct closure_ix *ix; /* its objects by name and by file (search.c) */
};

/* The file an absolute path p names for the search: under --root, as a
 * program chrooted into it would find it; else p. */
void rooted(const struct search_opts *o, const char *p, char *out, size_t len);

/* The search: start with obj alone (not owned), append a loaded root,
 * load the DT_NEEDED entries of libs[from..] breadth-first as the loader
 * does; 0, or -1 with one line (without the "linkopt: FILE: " prefix) in
 * err. closure_build (appview.h) is the closure a mode binds against. */
int closure_start(struct elf *obj, struct closure *c, char *err, size_t errlen);
/* Takes over the reference obj. */
int closure_add(struct closure *c, struct cobj *obj, const char *path, int needed_by, char *err, size_t errlen);
int closure_expand(struct closure *c, const struct search_opts *o, unsigned from, char *err, size_t errlen);
/* Frees what the search put in c (its libraries and index); a closure
 * holding views is freed with closure_free (appview.h). */
void closure_free_libs(struct closure *c);
/* A copy of src, the same objects referenced once more; obj, not owned,
 * is its libs[0] (src->libs[0].obj is taken as it is, not referenced).
 * On failure dst is still freed by the caller. */
int closure_copy(struct closure *dst, const struct closure *src, struct elf *obj, char *err, size_t errlen);
/* Brings each library of c (libs[1..]) whose object was retired (a new
 * output staged for it) to the run's current version of its file
 * (objcache.h): 1, or 0 when one changed what the search reads (its
 * DT_NEEDED, SONAME, RPATH/RUNPATH...) or is gone, and c must be searched
 * again. For closures kept within one run (objcache_run). */
int closure_refresh(struct closure *c);
/* Room for one more library in c (-1 and err set when out of memory). */
int closure_grow(struct closure *c, char *err, size_t errlen);
int is_musl_object(const struct elf *e);
/* The symbol table identity of a closure's object (computed once per
 * object of the run). */
uint64_t lib_symtab_id(const struct lib *l);

#endif
