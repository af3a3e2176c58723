/* Finding and loading libraries: reserved names, objects already loaded,
 * the search (common/libsearch.c: musl's order), breadth-first loading of
 * DT_NEEDED. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ext/ext.h"
#include "pathexp.h"
#include "elfhash.h"
#include "libsearch.h"

static const char *sys_path;   /* path file contents, the defaults, or "" */

/* The whole path file, or 0 with *err set. */
static char *read_path_file(const char *path, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return 0;
	}
	struct stat st;
	char *buf = 0;
	*err = EIO;
	if (!fstat(fd, &st) && st.st_size >= 0 && (size_t)st.st_size < SIZE_MAX / 2 &&
	    (buf = qb_malloc((size_t)st.st_size + 1))) {
		size_t n = 0;
		while (n < (size_t)st.st_size) {
			ssize_t k = read(fd, buf + n, (size_t)st.st_size - n);
			if (k <= 0)
				break;
			n += (size_t)k;
		}
		buf[n] = 0;
	}
	close(fd);
	return buf;
}

/* As musl: a missing path file means the defaults; one that exists but
 * cannot be read means no system directories at all. */
static const char *system_path(void)
{
	if (!sys_path) {
		int err;
		sys_path = read_path_file("/etc/ld-quickbind-" QB_ARCH_NAME ".path", &err);
		if (!sys_path && err == ENOENT)
			sys_path = read_path_file("/etc/ld-musl-" QB_ARCH_NAME ".path", &err);
		if (!sys_path)
			sys_path = err == ENOENT ? QB_DEFAULT_LIBPATH : "";
	}
	return sys_path;
}

/* The file the kernel ran: the program's for its $ORIGIN, the loader's
 * when run as a command (its argv[0] may be a link such as ldd). */
hidden const char *qb_exe_path(void)
{
	static char buf[PATH_MAX];
	static int state;   /* 0 not read, 1 read, -1 unavailable */
	if (!state) {
		ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
		state = n > 0 ? 1 : -1;
		if (n > 0)
			buf[n] = 0;
	}
	return state > 0 ? buf : 0;
}

static const void *chain_link(void *ctx, const void *obj, struct qb_chain_link *out)
{
	(void)ctx;
	const struct dso *p = obj;
	out->rpath = p->runpath ? p->runpath : p->rpath;
	out->program = p->is_main;
	out->path = p->name;
	if (p->is_main && !p->map)
		out->path = out->rpath && strchr(out->rpath, '$') ? qb_exe_path() : 0;
	return p->needed_by;
}

/* openat, unlike open, sets close-on-exec in the one system call (open
 * follows with an fcntl for kernels that ignored the flag, long gone). */
static int open_file(int dir, const char *path)
{
	return openat(dir, path, O_RDONLY | O_CLOEXEC);
}

/* While start-up loads its libraries, each directory the search tries
 * is opened once and its libraries through it: the kernel walks the
 * directory's path once, not once a library. A directory that cannot be
 * opened is tried by whole paths, for their own errors. */
static struct { char *dir; size_t len; int fd; } dirs[8];
static size_t ndirs;
static int dirs_closed;

static int dir_fd(const char *path, const char *slash)
{
	size_t len = (size_t)(slash - path), i = 0;
	while (i < ndirs && (dirs[i].len != len || memcmp(dirs[i].dir, path, len)))
		i++;
	if (i == ndirs) {
		char *dir = ndirs < sizeof dirs / sizeof *dirs ? qb_malloc(len + 1) : 0;
		if (!dir)
			return AT_FDCWD;
		dirs[ndirs++] = (typeof(dirs[0])){ memcpy(dir, path, len), len,
			openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC) };
	}
	return dirs[i].fd < 0 ? AT_FDCWD : dirs[i].fd;
}

static void close_dirs(void)
{
	while (ndirs)
		if (dirs[--ndirs].fd >= 0)
			close(dirs[ndirs].fd);
	dirs_closed = 1;
}

struct attempt {
	int fd, quiet;
	char path[PATH_MAX];
	const char *why;    /* why the search stopped early */
};

static int try_open(void *ctx, const char *path, enum qb_search_src src)
{
	(void)src;
	struct attempt *a = ctx;
	const char *slash = qb.started || dirs_closed ? 0 : strrchr(path, '/');
	int dir = slash && slash > path ? dir_fd(path, slash) : AT_FDCWD;
	a->fd = open_file(dir, dir == AT_FDCWD ? path : slash + 1);
	int err = errno;
	if ((qb.debug & QB_DBG_LIBS) && !a->quiet)
		qb_dbg("  trying file=%s%s", path, a->fd >= 0 ? "" : " (not found)");
	if (a->fd >= 0)
		return 1;
	switch (err) {
	case ENOENT: case ENOTDIR: case EACCES: case ENAMETOOLONG:
		return 0;
	}
	/* Any other failure ends the search, as in musl: the library
	 * behind it must not be replaced by one found later. */
	a->why = strerror(err);
	return -1;
}

static int find_file(struct attempt *a, const char *name, struct dso *needed_by)
{
	struct qb_search s = {
		.env_path = qb.env.library_path, .sys_path_of = system_path,
		.secure = qb.secure, .needed_by = needed_by,
		.link = chain_link, .try_file = try_open, .ctx = a,
		.buf = a->path, .bufsz = sizeof a->path,
	};
	return qb_search_library(&s, name);
}

hidden int qb_search_open(const char *name, struct dso *needed_by)
{
	struct attempt a;
	a.fd = -1, a.quiet = 1;
	return strchr(name, '/') ? open_file(AT_FDCWD, name) : find_file(&a, name, needed_by) ? a.fd : -1;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = qb_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* A C library (it defines both __libc_start_main and stdin: musl's or
 * glibc's, not an interposer of a few of its functions) is never mapped
 * beside the loader, which is the process's C library: as in musl, the
 * loader stands for it, as for "libc.so". */
static int is_libc(struct dso *p)
{
	struct qb_symreq r;
	qb_symreq_init(&r, "__libc_start_main", 0);
	if (!qb_lookup_in(p, &r))
		return 0;
	qb_symreq_init(&r, "stdin", 0);
	return qb_lookup_in(p, &r) != 0;
}

/* A mapped object that joined nothing yet, given back. */
static void discard(struct dso *p)
{
	qb_ext_released(p);
	munmap(p->map, p->map_len);
	if (p->phdr && !((unsigned char *)p->phdr >= p->map &&
	    (unsigned char *)p->phdr < p->map + p->map_len))
		qb_free(p->phdr);
	qb_free(p->vdefs);
	qb_free(p->vreqs);
	qb_free(p);
}

/* noload (RTLD_NOLOAD): the object the name leads to, found as a load
 * finds it (by name, or by a search and its file's identity), only if it
 * is loaded already. */
static struct dso *load(const char *name, struct dso *needed_by, const char **why, int noload)
{
	*why = "No such file or directory";
	if (!*name) {
		*why = "Invalid argument";
		return 0;
	}
	if (qb_search_reserved(name) && !strchr(name, '/')) {
		if (!qb.ldso->prev) {
			/* ldd names libc as the first object asked for it
			 * (libc.musl-x86_64.so.1 on musl distributions), as
			 * musl's does; nothing is unloaded in that mode. */
			if (qb.list_mode && needed_by)
				qb.ldso->shortname = name;
			qb_dso_append(qb.ldso);
		}
		return qb.ldso;
	}
	struct dso *p = qb_find_loaded(name);
	if (p)
		return p;

	const int path = strchr(name, '/') != 0;
	struct attempt a;  /* not zeroed: its path buffer is a page */
	a.fd = -1, a.quiet = 0, a.why = 0;
	if (path) {
		size_t n = strlen(name);
		if (n >= sizeof a.path)
			return 0;
		memcpy(a.path, name, n + 1);
		if ((a.fd = open_file(AT_FDCWD, name)) < 0) {
			*why = strerror(errno);
			return 0;
		}
	} else {
		if (strlen(name) > NAME_MAX)
			return 0;
		if (qb.debug & QB_DBG_LIBS)
			qb_dbg("find library=%s [needed by %s]; searching", name,
				needed_by ? needed_by->name : "dlopen/LD_PRELOAD");
		if (!find_file(&a, name, needed_by)) {
			if (a.why)
				*why = a.why;
			return 0;
		}
	}

	struct stat st;
	if (fstat(a.fd, &st) < 0) {
		close(a.fd);
		*why = "cannot stat";
		return 0;
	}
	if ((p = qb_find_file(st.st_dev, st.st_ino))) {
		close(a.fd);
		return p;
	}

	if (noload) {
		close(a.fd);
		return 0;
	}
	p = qb_map_file(a.fd, &st, a.path, 0, why);
	close(a.fd);
	if (!p)
		return 0;
	if (is_libc(p)) {
		discard(p);
		return load("libc.so", needed_by, why, 0);
	}
	p->name = dup_str(a.path);
	p->shortname = dup_str(name);
	p->needed_by = needed_by;
	if (!p->name || !p->shortname) {
		*why = "out of memory";
		return 0;
	}
	qb_dso_append(p);
	qb_tls_register(p);
	if (qb.debug & QB_DBG_LIBS)
		qb_dbg("loaded file=%s at %p (tls module %zu)", p->name, (void *)p->base, p->tls_id);
	return p;
}

hidden struct dso *qb_load_library(const char *name, struct dso *needed_by, const char **why)
{
	return load(name, needed_by, why, 0);
}

hidden struct dso *qb_find_library(const char *name)
{
	const char *why;
	return load(name, qb.main, &why, 1);  /* as dlopen searches: from the program */
}

struct needed {
	struct dso *p;
	Dyn *d;
	size_t k;
};

static inline __attribute__((always_inline)) void load_needed(void *arg)
{
	struct needed *n = arg;
	struct dso *p = n->p;
	if (n->d->d_un.d_val >= p->dyn.strsz)
		qb_error("Error loading shared library: bad DT_NEEDED string offset in %s", p->name);
	const char *name = p->strings + n->d->d_un.d_val, *why;
	struct dso *dep = qb_load_library(name, p, &why);
	if (!dep)
		qb_error("Error loading shared library %s: %s (needed by %s)", name, why, p->name);
	p->deps[n->k++] = dep;
	qb_ext_needed(p, (size_t)(n->d - (Dyn *)p->dynv), dep);
}

/* The list mode reports every library it cannot load and goes on. */
hidden void qb_load_deps(struct dso *start)
{
	for (struct dso *p = start; p; p = p->next) {
		if (p->deps_loaded || p->is_ldso)
			continue;
		p->deps_loaded = 1;
		size_t n = p->dyn.nneeded;
		if (!n)
			continue;
		p->deps = qb_calloc(n + 1, sizeof *p->deps);
		if (!p->deps)
			qb_error("%s: out of memory", p->name);
		struct needed nd = { p, 0, 0 };
		/* The direct call is inlined: start-up pays nothing for the
		 * list mode. */
		for (nd.d = (Dyn *)p->dynv; nd.d->d_tag; nd.d++)
			if (nd.d->d_tag == DT_NEEDED) {
				if (qb.list_mode)
					qb_keep_going(load_needed, &nd);
				else
					load_needed(&nd);
			}
		p->ndeps = nd.k;
	}
	if (!qb.started)
		close_dirs();
}

hidden void qb_load_preloads(const char *list)
{
	const char *cur = list, *elem;
	size_t n;
	char name[PATH_MAX];
	/* musl's separators: colons and any white space (a list written on
	 * several lines in a unit file or a Dockerfile) */
	while ((n = qb_path_next(&cur, " \t\n\v\f\r:", &elem))) {
		if (n >= sizeof name)
			continue;
		memcpy(name, elem, n);
		name[n] = 0;
		const char *why;
		struct dso *p = qb_load_library(name, 0, &why);
		/* As glibc: a preload that cannot be loaded is reported and
		 * skipped, not fatal. */
		if (!p)
			dprintf(2, "%s: cannot preload %s: %s: ignored\n", QB_LDSO_NAME, name, why);
		else
			p->preloaded = 1;
	}
}
