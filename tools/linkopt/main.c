/* linkopt's command line: the options, the modes (optimize, --dump,
 * --check, --interposers), the walk of --root, the passes that let a file
 * follow the libraries it needs, and the end of a run, all or nothing
 * (finish: outputs committed or discarded, the object cache cleared). */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appview.h"
#include "linkopt.h"
#include "launch.h"
#include "objcache.h"
#include "output.h"
#include "pagesfile.h"
#include "order.h"

static void usage(FILE *f)
{
	fputs("usage: linkopt [options] FILE...        add direct-binding and hash tables in place\n"
	      "       linkopt [options] -o OUT FILE    write the optimized FILE to OUT\n"
	      "       linkopt [options] --root DIR     optimize every ELF object under DIR\n"
	      "       linkopt --dump FILE...           print the tables\n"
	      "       linkopt --check FILE...          are the tables still valid? (exit 1 if stale)\n"
	      "       linkopt --interposers FILE...|--root DIR\n"
	      "                                        symbols defined by more than one object\n"
	      "options:\n"
	      "  -L DIR               search DIR for needed libraries first (then\n"
	      "                       LD_LIBRARY_PATH, as the program's run would; not with --root)\n"
	      "  --sysroot DIR        resolve absolute library paths under DIR\n"
	      "  --interpose-list F   never bind the symbols listed in F (one per line) directly\n"
	      "  --nodirect           flag this object's own definitions as no-direct\n"
	      "  --app PROG           bind as the loader loads PROG (repeatable; executables\n"
	      "                       among the FILEs count too); other FILEs as its modules\n"
	      "  --no-sort            keep the order of the relocations\n"
	      "  --pages FILE         a program's closure record asks for the pages of each\n"
	      "                       library recorded runs read (LD_RECORD_PAGES=FILE)\n"
	      "  -O0                  the default: tables added, the symbol strings\n"
	      "                       reordered only where they fit in place\n"
	      "  -O1                  also rebuild .gnu.hash and .hash with about one\n"
	      "                       symbol per bucket (and a larger bloom filter)\n"
	      "  --loader FILE        the quickbind loader the programs run under, for their\n"
	      "                       launch record (default: the program's PT_INTERP when\n"
	      "                       it is one, else the loader beside linkopt)\n"
	      "  -v, --verbose        say what was done\n"
	      "  --help, --version\n"
	      "exit status: 0 ok, 1 stale tables (--check), 2 error (no file changed)\n", f);
}

static const struct opts *walk_o;
static int (*walk_fn)(const char *, const struct opts *);
static int walk_rc, walk_exe_only;

static int is_candidate(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	unsigned char h[20] = { 0 };
	size_t n = fread(h, 1, sizeof h, f);
	fclose(f);
	if (n < sizeof h || memcmp(h, "\177ELF", 4) || h[5] != 1)
		return 0;
	unsigned type = h[16] | h[17] << 8, mach = h[18] | h[19] << 8;
	if (type != 2 && type != 3)
		return 0;
	return (h[4] == 2 && mach == 62) || (h[4] == 1 && mach == 3);
}

static int walk_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	/* this run's own temporary outputs are not part of the tree */
	if (flag != FTW_F || !S_ISREG(st->st_mode) || !strncmp(path + ftw->base, ".linkopt.", 9) ||
	    !is_candidate(path))
		return 0;
	/* separate debugging information: ELF headers of an object whose
	 * contents are elsewhere, nothing to load or bind */
	if (strstr(path, "/usr/lib/debug/"))
		return 0;
	struct elf e;
	if (elf_load_file(&e, path) < 0) {
		int r = report(path, "%s", e.err);
		if (r > walk_rc)
			walk_rc = r;
		elf_free(&e);
		return 0;
	}
	/* static programs have nothing to bind; loaders relocate themselves
	 * through _DYNAMIC before anything else runs: leave both alone */
	int skip = e.dyn_ph < 0 || (walk_exe_only && !e.interp);
	int ndeps = 0;
	for (unsigned i = 0; i < e.ndyn; i++)
		ndeps += e.dyn[i].d_tag == DT_NEEDED;
	if (e.eh.e_type == ET_DYN && !e.interp && e.eh.e_entry && !ndeps)
		skip = 1;
	elf_free(&e);
	if (skip)
		return 0;
	int r = walk_fn(path, walk_o);
	if (r > walk_rc)
		walk_rc = r;
	return 0;
}

static int one_pass(int (*fn)(const char *, const struct opts *), const struct opts *o,
	const char *root, char **files, int nfiles)
{
	if (root)
		return walk_root(root, fn, o, fn == interposers_file);
	int rc = 0;
	for (int i = 0; i < nfiles; i++) {
		int r = fn(files[i], o);
		if (r > rc)
			rc = r;
	}
	return rc;
}

/* An object records the identity of each library it needs, so libraries
 * must be optimized before their users. Listed files are put in that
 * order; when that is not possible (a cycle, an unreadable file) or over
 * a whole root, optimize again while a pass still rewrote something (a
 * second pass rewrites only the users of what the first pass changed). */
static int repeat_until_stable(int (*fn)(const char *, const struct opts *), const struct opts *o,
	const char *root, char **files, int nfiles)
{
	int ordered = fn == optimize_file && !root && order_by_needs(files, nfiles);
	int rc = one_pass(fn, o, root, files, nfiles);
	for (int pass = 1; pass < 4 && fn == optimize_file && !o->out && rc == LO_OK &&
	     lo_files_written && !ordered; pass++) {
		lo_files_written = 0;
		rc = one_pass(fn, o, root, files, nfiles);
	}
	return rc;
}

/* All or nothing: the outputs staged by the passes replace their inputs
 * only when every file succeeded. Either way the run ends: the files were
 * renamed or left alone, and are read afresh after it (objcache_clear). */
static int finish(int rc)
{
	unsigned n = lo_nstaged();
	if (rc != LO_OK) {
		lo_abort();
		objcache_clear();
		if (n)
			fprintf(stderr, "linkopt: no file changed (%u optimized file%s discarded)\n", n, n == 1 ? "" : "s");
		return rc;
	}
	const char *failed = NULL;
	char err[512];
	int committed = lo_commit(&failed, err, sizeof err);
	objcache_clear();
	if (committed < 0) {
		report(failed, "%s; no file changed", err);
		return LO_ERR;
	}
	return rc;
}

int walk_root(const char *root, int (*fn)(const char *, const struct opts *), const struct opts *o, int exe_only)
{
	walk_o = o;
	walk_fn = fn;
	walk_rc = 0;
	walk_exe_only = exe_only;
	if (nftw(root, walk_one, 32, FTW_PHYS) < 0)
		return report(root, "%s", strerror(errno));
	return walk_rc;
}

/* --root: every program of the image is an application (appview.c). */
static const char **root_apps;
static unsigned root_napps;

/* ... and the names of its files with several hard links. */
static int collect_program(const char *path, const struct opts *o)
{
	(void)o;
	char *p = strdup(path);
	unsigned before = root_napps;
	if (!p || appview_collect(&p, 1, &root_apps, &root_napps) < 0 || lo_note_name(path) < 0)
		return report(path, "out of memory");
	if (root_napps == before)
		free(p);
	return LO_OK;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int load_interpose_list(const char *file, struct bind_opts *bo)
{
	FILE *f = fopen(file, "re");
	if (!f)
		return report(file, "%s", strerror(errno));
	char *line = NULL;
	size_t cap = 0, n = 0, alloc = 0;
	const char **v = NULL;
	while (getline(&line, &cap, f) >= 0) {
		line[strcspn(line, " \t\r\n#")] = 0;
		if (!*line)
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			const char **nv = realloc(v, alloc * sizeof *v);
			if (!nv)
				return report(file, "out of memory");
			v = nv;
		}
		v[n++] = strdup(line);
	}
	free(line);
	fclose(f);
	qsort(v, n, sizeof *v, cmpstr);
	bo->interpose = v;
	bo->ninterpose = n;
	return 0;
}

enum { OPT_DUMP = 256, OPT_CHECK, OPT_INTERPOSERS, OPT_ROOT, OPT_SYSROOT, OPT_ILIST, OPT_NODIRECT,
       OPT_NOSORT, OPT_HELP, OPT_VERSION, OPT_APP, OPT_PAGES, OPT_LOADER };

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "dump", no_argument, 0, OPT_DUMP },
		{ "check", no_argument, 0, OPT_CHECK },
		{ "interposers", no_argument, 0, OPT_INTERPOSERS },
		{ "root", required_argument, 0, OPT_ROOT },
		{ "sysroot", required_argument, 0, OPT_SYSROOT },
		{ "interpose-list", required_argument, 0, OPT_ILIST },
		{ "nodirect", no_argument, 0, OPT_NODIRECT },
		{ "no-sort", no_argument, 0, OPT_NOSORT },
		{ "app", required_argument, 0, OPT_APP },
		{ "pages", required_argument, 0, OPT_PAGES },
		{ "loader", required_argument, 0, OPT_LOADER },
		{ "verbose", no_argument, 0, 'v' },
		{ "help", no_argument, 0, OPT_HELP },
		{ "version", no_argument, 0, OPT_VERSION },
		{ 0, 0, 0, 0 },
	};
	struct opts o;
	memset(&o, 0, sizeof o);
	o.sort = 1;
	const char *root = NULL;
	static const char *ldirs[256];
	const char **apps = NULL;
	int (*fn)(const char *, const struct opts *) = optimize_file;
	int c;
	while ((c = getopt_long(argc, argv, "o:L:O:v", lo, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = optarg; break;
		case 'L':
			if (o.so.nldirs < 256)
				ldirs[o.so.nldirs++] = optarg;
			break;
		case 'O':
			if (strcmp(optarg, "0") && strcmp(optarg, "1")) {
				fprintf(stderr, "linkopt: -O%s: unknown level (-O0 or -O1)\n", optarg);
				return LO_ERR;
			}
			o.level = optarg[0] - '0';
			break;
		case 'v': o.verbose = 1; break;
		case OPT_DUMP: fn = dump_file; break;
		case OPT_CHECK: fn = check_file; break;
		case OPT_INTERPOSERS: fn = interposers_file; break;
		case OPT_ROOT: root = optarg; break;
		case OPT_SYSROOT: o.so.root = optarg; break;
		case OPT_ILIST:
			if (load_interpose_list(optarg, &o.bo))
				return LO_ERR;
			break;
		case OPT_NODIRECT: o.bo.nodirect = 1; break;
		case OPT_NOSORT: o.sort = 0; break;
		case OPT_APP:
			if (appview_collect(&optarg, -1, &apps, &o.so.napps) < 0)
				return LO_ERR;
			break;
		case OPT_PAGES: {
			char err[PATH_MAX + 128];
			pagesfile_free((struct pagesfile *)o.pages);
			if (!(o.pages = pagesfile_read(optarg, err, sizeof err))) {
				fprintf(stderr, "linkopt: %s\n", err);
				return LO_ERR;
			}
			break;
		}
		case OPT_LOADER: launch_loader_opt = optarg; break;
		case OPT_HELP: usage(stdout); return 0;
		case OPT_VERSION: printf("linkopt %s (quickbind)\n", LINKOPT_VERSION); return 0;
		default: usage(stderr); return LO_ERR;
		}
	}
	o.so.ldirs = ldirs;
	/* a root's programs do not run with this environment */
	if (!root)
		o.so.env_path = getenv("LD_LIBRARY_PATH");
	o.bo.verbose = o.verbose;
	o.so.verbose = o.verbose;
	/* the loader's $ORIGIN of a program is its real path, which has
	 * the root's real path as its prefix */
	static char realroot[PATH_MAX];
	if (root)
		o.so.root = root;
	if (o.so.root && realpath(o.so.root, realroot))
		o.so.root = realroot;
	if (!root && fn != dump_file && appview_collect(argv + optind, argc - optind, &apps, &o.so.napps) < 0)
		return LO_ERR;
	o.so.apps = apps;
	if (root) {
		if (optind != argc || o.out) {
			fprintf(stderr, "linkopt: --root takes no FILE and no -o\n");
			return LO_ERR;
		}
		if (fn == optimize_file || fn == check_file) {
			root_apps = apps;
			root_napps = o.so.napps;
			int r = walk_root(root, collect_program, &o, 0);
			if (r != LO_OK)
				return r;
			o.so.apps = root_apps;
			o.so.napps = root_napps;
		}
		if (fn == optimize_file && appview_check_programs(&o.so) != LO_OK)
			return LO_ERR;
		return finish(repeat_until_stable(fn, &o, root, NULL, 0));
	}
	if (optind == argc) {
		usage(stderr);
		return LO_ERR;
	}
	if (o.out && argc - optind != 1) {
		fprintf(stderr, "linkopt: -o takes exactly one FILE\n");
		return LO_ERR;
	}
	if (fn == optimize_file && appview_check_programs(&o.so) != LO_OK)
		return LO_ERR;
	return finish(repeat_until_stable(fn, &o, NULL, argv + optind, argc - optind));
}
