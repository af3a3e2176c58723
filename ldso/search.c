/* Finding and loading libraries: reserved names, objects already loaded,
 * the search path in the order RPATH (without RUNPATH), LD_LIBRARY_PATH,
 * RUNPATH, the path file, the default directories; breadth-first loading
 * of DT_NEEDED. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ldso.h"
#include "pathexp.h"
#include "elfhash.h"

#define DEFAULT_PATH "/lib:/usr/local/lib:/usr/lib"

static char *sys_path;       /* contents of the path file, or "" */
static int sys_path_read;

/* Names that mean musl's libc, which the loader itself is. */
static int is_reserved(const char *name)
{
	static const char *const libs[] = {
		"libc.", "libdl.", "libpthread.", "librt.", "libm.",
		"libutil.", "libxnet.",
	};
	for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
		if (!strncmp(name, libs[i], strlen(libs[i])))
			return 1;
	return 0;
}

static char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	char *buf = 0;
	if (!fstat(fd, &st) && st.st_size < 65536 && (buf = __libc_malloc(st.st_size + 1))) {
		ssize_t n = read(fd, buf, st.st_size);
		buf[n > 0 ? n : 0] = 0;
	}
	close(fd);
	return buf;
}

static const char *system_path(void)
{
	if (!sys_path_read) {
		sys_path_read = 1;
		sys_path = read_file("/etc/ld-quickbind-" QB_ARCH_NAME ".path");
		if (!sys_path)
			sys_path = read_file("/etc/ld-musl-" QB_ARCH_NAME ".path");
	}
	return sys_path ? sys_path : "";
}

/* The directory of the object, for $ORIGIN. */
static const char *origin_of(struct dso *p, char *buf, size_t size)
{
	const char *path = p->name;
	if (p->is_main && !p->map) {
		ssize_t n = readlink("/proc/self/exe", buf, size - 1);
		if (n <= 0)
			return 0;
		buf[n] = 0;
		path = buf;
	}
	size_t n = qb_dirname_len(path);
	if (n >= size)
		return 0;
	if (!n)
		return ".";
	memmove(buf, path, n);
	buf[n] = 0;
	return buf;
}

struct attempt {
	int fd;
	char path[PATH_MAX];
	const char *why;       /* the first file found but unusable */
	char why_path[PATH_MAX];
};

static int try_open(struct attempt *a, const char *dir, size_t dlen, const char *name)
{
	size_t nlen = strlen(name);
	if (dlen + 1 + nlen >= sizeof a->path)
		return 0;
	memcpy(a->path, dir, dlen);
	a->path[dlen] = '/';
	memcpy(a->path + dlen + 1, name, nlen + 1);
	a->fd = open(a->path, O_RDONLY | O_CLOEXEC);
	if (qb.debug & QB_DBG_LIBS)
		qb_dbg("  trying file=%s%s", a->path, a->fd >= 0 ? "" : " (not found)");
	return a->fd >= 0;
}

/* Search a colon/newline separated list; $ORIGIN relative to 'from'. */
static int search_list(struct attempt *a, const char *list, struct dso *from, const char *name)
{
	const char *cur = list, *elem;
	size_t n;
	char obuf[PATH_MAX], ebuf[PATH_MAX];
	while ((n = qb_path_next(&cur, ":\n", &elem))) {
		if (from && memchr(elem, '$', n)) {
			const char *origin = origin_of(from, obuf, sizeof obuf);
			if (!origin)
				continue;
			/* Secure processes only trust absolute origins. */
			if (qb.secure && origin[0] != '/')
				continue;
			long e = qb_expand_origin(elem, n, origin, ebuf, sizeof ebuf);
			if (e < 0)
				continue;
			if (try_open(a, ebuf, e, name))
				return 1;
		} else if (try_open(a, elem, n, name)) {
			return 1;
		}
	}
	return 0;
}

static int find_file(struct attempt *a, const char *name, struct dso *needed_by)
{
	if (needed_by && !needed_by->runpath)
		for (struct dso *p = needed_by; p; p = p->needed_by)
			if (p->rpath && !p->runpath && search_list(a, p->rpath, p, name))
				return 1;
	if (qb.env_library_path && search_list(a, qb.env_library_path, 0, name))
		return 1;
	if (needed_by && needed_by->runpath && search_list(a, needed_by->runpath, needed_by, name))
		return 1;
	if (search_list(a, system_path(), 0, name))
		return 1;
	return search_list(a, DEFAULT_PATH, 0, name);
}

/* Every DT_NEEDED entry is looked for among the loaded objects: compare
 * name hashes, computed once per object, before names. */
static int same_name(const char *a, uint32_t ah, const char *b, uint32_t bh)
{
	return a && ah == bh && !strcmp(a, b);
}

hidden struct dso *qb_find_loaded(const char *name)
{
	uint32_t h = qb_gnu_hash(name);
	int path = strchr(name, '/') != 0;
	for (struct dso *p = qb.head; p; p = p->next) {
		if (!p->names_hashed) {
			p->shortname_h = p->shortname ? qb_gnu_hash(p->shortname) : 0;
			p->soname_h = p->soname ? qb_gnu_hash(p->soname) : 0;
			p->name_h = p->name ? qb_gnu_hash(p->name) : 0;
			p->names_hashed = 1;
		}
		if (same_name(p->shortname, p->shortname_h, name, h) ||
		    (!path && same_name(p->soname, p->soname_h, name, h)) ||
		    same_name(p->name, p->name_h, name, h))
			return p;
	}
	return 0;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = __libc_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

hidden struct dso *qb_load_library(const char *name, struct dso *needed_by, const char **why)
{
	*why = "No such file or directory";
	if (!*name)
		return 0;
	if (!strchr(name, '/') && is_reserved(name)) {
		if (!qb.ldso->prev)
			qb_dso_append(qb.ldso);
		return qb.ldso;
	}
	struct dso *p = qb_find_loaded(name);
	if (p)
		return p;

	struct attempt a;
	a.fd = -1;
	if (strchr(name, '/')) {
		size_t n = strlen(name);
		if (n >= sizeof a.path)
			return 0;
		memcpy(a.path, name, n + 1);
		a.fd = open(name, O_RDONLY | O_CLOEXEC);
		if (a.fd < 0) {
			*why = strerror(errno);
			return 0;
		}
	} else {
		if (strlen(name) > NAME_MAX)
			return 0;
		if (qb.debug & QB_DBG_LIBS)
			qb_dbg("find library=%s [needed by %s]; searching", name,
				needed_by ? needed_by->name : "dlopen/LD_PRELOAD");
		if (!find_file(&a, name, needed_by))
			return 0;
	}

	struct stat st;
	if (fstat(a.fd, &st) == 0)
		for (p = qb.head; p; p = p->next)
			if (p->dev == st.st_dev && p->ino == st.st_ino) {
				close(a.fd);
				return p;
			}

	p = qb_map_file(a.fd, a.path, 0, why);
	close(a.fd);
	if (!p)
		return 0;
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

hidden void qb_load_deps(struct dso *start)
{
	for (struct dso *p = start; p; p = p->next) {
		if (p->deps_loaded || p->is_ldso)
			continue;
		p->deps_loaded = 1;
		size_t n = p->dyn.nneeded, k = 0;
		if (!n)
			continue;
		p->deps = __libc_calloc(n + 1, sizeof *p->deps);
		if (!p->deps)
			qb_fatal("%s: out of memory", p->name);
		for (Dyn *d = (Dyn *)p->dynv; d->d_tag; d++) {
			if (d->d_tag != DT_NEEDED)
				continue;
			if (d->d_un.d_val >= p->dyn.strsz) {
				qb_error("Error loading shared library: bad DT_NEEDED string offset in %s", p->name);
				continue;
			}
			const char *name = p->strings + d->d_un.d_val, *why;
			struct dso *dep = qb_load_library(name, p, &why);
			if (!dep) {
				qb_error("Error loading shared library %s: %s (needed by %s)", name, why, p->name);
				continue;
			}
			p->deps[k++] = dep;
			qb_fast_needed(p, (size_t)(d - (Dyn *)p->dynv), dep);
		}
		p->ndeps = k;
	}
}

hidden void qb_load_preloads(const char *list)
{
	const char *cur = list, *elem;
	size_t n;
	char name[PATH_MAX];
	while ((n = qb_path_next(&cur, " :", &elem))) {
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
			p->interposer = 1;
	}
}
