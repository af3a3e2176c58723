/* Options and entry points of linkopt's modes. */
#ifndef LINKOPT_LINKOPT_H
#define LINKOPT_LINKOPT_H

#include "bind.h"
#include "report.h"
#include "search.h"

#define LINKOPT_VERSION "0.1"

struct opts {
	struct search_opts so;
	struct bind_opts bo;
	const char *out;
	int sort;      /* group relocations by symbol (default on) */
	int level;     /* -O1: resize hash tables */
	int verbose;
	int quiet_skip; /* --root: skip silently what is not a dynamic x86 ELF object */
	const struct pagesfile *pages; /* --pages: what recorded runs read */
};

int optimize_file(const char *path, const struct opts *o);
int dump_file(const char *path, const struct opts *o);
int check_file(const char *path, const struct opts *o);
int interposers_file(const char *path, const struct opts *o);
/* Calls fn for every ELF file under root; returns the worst status. */
/* Files optimize_file wrote (an unchanged file is not rewritten). */
extern int lo_files_written;
int walk_root(const char *root, int (*fn)(const char *, const struct opts *), const struct opts *o, int executables_only);

#endif
