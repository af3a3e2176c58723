/* Finding an object's DT_NEEDED libraries the way the loader does
 * (common/libsearch.c, shared with it), and
 * loading its whole dependency closure in breadth-first (load) order. */
#ifndef LINKOPT_SEARCH_H
#define LINKOPT_SEARCH_H

#include "elffile.h"
#include "libsearch.h"

struct search_opts {
	const char *root;      /* --root / --sysroot prefix, or NULL */
	const char **ldirs;    /* -L directories, searched first */
	unsigned nldirs;
	/* The objects above the file on the loader's needed-by chain (for a
	 * library: the object that loads it, then the one that loaded that,
	 * up to the program; for a dlopened plugin: the program). Their
	 * RPATH/RUNPATH are searched after the file's own, as the loader
	 * does. Empty: the file is the top of its chain. */
	const struct qb_chain_link *above;
	unsigned nabove;
};

struct lib {
	char *path;
	struct elf e;
	int needed_by;        /* index of the first object that needs it, -1 for the object */
	int dynidx;           /* index of the DT_NEEDED entry in the object's .dynamic, -1 if indirect */
	unsigned long long dev, ino;
};

struct closure {
	struct lib *libs;     /* libs[0] is the object itself (elf not owned) */
	unsigned n, cap;
	int musl;             /* the object is musl-built */
	int secure;           /* a set-id file: the loader's secure-mode rules */
};

/* 0 on success; on failure, writes one line (without the "linkopt: FILE: " prefix) to err. */
int closure_build(struct elf *obj, const struct search_opts *o, struct closure *c, char *err, size_t errlen);
void closure_free(struct closure *c);
int is_musl_object(const struct elf *e);

#endif
