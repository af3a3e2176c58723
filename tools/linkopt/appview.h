/* linkopt's application view: a library is resolved and bound as the
 * loader loads it for a given program (its start-up load, breadth-first,
 * with the program's RPATH/RUNPATH on the needed-by chain), and a file no
 * given program loads at start-up as a module that program dlopens. */
#ifndef LINKOPT_APPVIEW_H
#define LINKOPT_APPVIEW_H

#include "search.h"

struct appview {
	const char *app;      /* the program as given */
	struct elf prog;      /* a copy of progobj's; load.libs[0] refers to it */
	struct cobj *progobj; /* the run's object of the program */
	/* The program's start-up load in load order; for a module it
	 * dlopens, followed by the module and the libraries it adds. */
	struct closure load;
	unsigned self;        /* index of the object optimized in load */
	unsigned nstart;      /* objects of the start-up load (the global scope) */
	int parent;           /* for a module: the object of load that is its parent, -1 */
};

/* The closure obj is bound against in this run: built from the loads of
 * the programs given (appview_closure) when one of them concerns obj,
 * else by obj's own search (search.h). 0 on success; on failure, one line
 * (without the "linkopt: FILE: " prefix) in err. */
int closure_build(struct elf *obj, const struct search_opts *o, struct closure *c, char *err, size_t errlen);
/* Frees a closure, the programs' views it holds included. */
void closure_free(struct closure *c);

/* Build c for obj from the loads of the programs in o->apps: 1 when no
 * given program concerns obj (a program none of them is), 0 when built
 * (c->views filled), -1 on error with one line in err. */
int appview_closure(struct elf *obj, const struct search_opts *o, struct closure *c, char *err, size_t errlen);
void appview_free_all(struct appview **v, unsigned n);

/* An executable (PT_INTERP; a PIE without SONAME or flagged DF_1_PIE),
 * as opposed to a library. */
int appview_is_program(const struct elf *e);
/* Adds the executables among files to the program list (*apps, *napps,
 * malloc'd); nfiles -1: files[0] is a program (--app). Unreadable files
 * are left to the mode's own error. */
int appview_collect(char **files, int nfiles, const char ***apps, unsigned *napps);

/* Each program of o->apps can be loaded (one line for each that cannot):
 * LO_OK, or LO_ERR before any file is optimized for them. */
int appview_check_programs(const struct search_opts *o);

#endif
