/* The library search of musl 1.2.3's loader, shared by the loader and
 * linkopt so that linkopt predicts the file the loader opens.
 *
 * For a name without '/': the LD_LIBRARY_PATH list; then the RPATH or
 * RUNPATH (not told apart; RUNPATH wins when an object has both) of the
 * object that needs the library, then of the object that loaded that one,
 * and so on up the needed-by chain (dlopen starts the chain at the
 * program); then the system list (the path file's contents, or the
 * defaults when there is no path file). Files and the chain are reached
 * through callbacks, so this file needs nothing but <string.h>. */
#ifndef QB_LIBSEARCH_H
#define QB_LIBSEARCH_H

#include <stddef.h>

#define QB_DEFAULT_LIBPATH "/lib:/usr/local/lib:/usr/lib"

/* Where a candidate directory came from (linkopt roots some of them). */
enum qb_search_src {
	QB_FROM_ENV,      /* LD_LIBRARY_PATH, linkopt's -L */
	QB_FROM_RPATH,    /* an RPATH/RUNPATH element used as written */
	QB_FROM_ORIGIN,   /* an RPATH/RUNPATH element after $ORIGIN expansion */
	QB_FROM_SYS,      /* the path file or the defaults */
};

/* One object of the needed-by chain, as the search sees it. */
struct qb_chain_link {
	const char *rpath;  /* DT_RUNPATH, else DT_RPATH, unexpanded; 0 for none */
	const char *path;   /* its file name, for $ORIGIN; 0 when unknown */
	int program;        /* the program: in secure mode its $ORIGIN must be trusted */
};

struct qb_search {
	const char *env_path;   /* searched first; 0 for none */
	const char *sys_path;   /* searched last: path file contents or defaults */
	const char *(*sys_path_of)(void);  /* or, when 0, what this gives, asked once needed */
	int secure;             /* set-id process: see qb_search_library */
	const void *needed_by;  /* the first object of the chain, 0 for none */
	/* Describe obj; return the object that loaded it, 0 at the top. */
	const void *(*link)(void *ctx, const void *obj, struct qb_chain_link *out);
	/* 1: the file is there (search ends, path stays in buf); 0: not
	 * there, go on; -1: an error that ends the whole search unfound
	 * (musl stops on open errors other than ENOENT, ENOTDIR, EACCES,
	 * ENAMETOOLONG). */
	int (*try_file)(void *ctx, const char *path, enum qb_search_src src);
	void *ctx;
	char *buf;              /* candidate paths are built here */
	size_t bufsz;
};

/* Search for name (no '/'). 1 when found (its path in s->buf), else 0.
 * $ORIGIN and ${ORIGIN} are expanded in RPATH/RUNPATH only; a list with
 * any other '$' is not used at all. In secure mode an element that is not
 * an absolute directory is skipped, an element that uses the program's
 * $ORIGIN is used only when it lies in a trusted system directory
 * (qb_trusted_dir), and a library's $ORIGIN only when it is absolute. */
int qb_search_library(const struct qb_search *s, const char *name);

/* The names musl's loader satisfies with itself (libc.*, libdl.*,
 * libpthread.*, librt.*, libm.*, libutil.*, libxnet.*). */
int qb_search_reserved(const char *name);

/* Expand $ORIGIN/${ORIGIN} in elem[0..len) with the directory of
 * obj_path ("." when it has no '/'), into out. Returns the length, or -1
 * when it does not fit or a '$' starts anything else. */
long qb_expand_origin(const char *elem, size_t len, const char *obj_path,
	char *out, size_t outsz);

/* Is the absolute directory dir[0..len), with "." and ".." resolved,
 * /lib or /usr/lib or below them? */
int qb_trusted_dir(const char *dir, size_t len);

#endif
