/* The run's outputs (output.h): each written to a temporary file next to
 * its destination with the destination's attributes and read back; the
 * files as the run will leave them (lo_load_elf); and the rename of them
 * all over their destinations, hard links included, or none. */
#define _GNU_SOURCE
#include "output.h"
#include "index.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

/* Every extended attribute goes along: file capabilities
 * (security.capability), ACLs (system.posix_acl_*), security labels and
 * user attributes. One that cannot be set is an error: a program that
 * silently lost a capability would fail later, far from the cause. */
static int copy_xattrs(const char *src, int fd, char *err, size_t errlen)
{
	ssize_t n = listxattr(src, NULL, 0);
	if (n < 0 && (errno == ENOTSUP || errno == ENOENT))
		return 0;
	if (n < 0) {
		snprintf(err, errlen, "cannot list extended attributes: %s", strerror(errno));
		return -1;
	}
	char *names = malloc((size_t)n + 1), *val = NULL;
	if (!names || (n = listxattr(src, names, (size_t)n)) < 0) {
		snprintf(err, errlen, "cannot list extended attributes: %s", names ? strerror(errno) : "out of memory");
		free(names);
		return -1;
	}
	int rc = 0;
	for (char *a = names; a < names + n && !rc; a += strlen(a) + 1) {
		ssize_t vl = getxattr(src, a, NULL, 0);
		char *nv = vl >= 0 ? realloc(val, (size_t)vl + 1) : NULL;
		if (nv)
			val = nv;
		if (vl < 0 || !nv || (vl = getxattr(src, a, val, (size_t)vl)) < 0 ||
		    fsetxattr(fd, a, val, (size_t)vl, 0) < 0) {
			snprintf(err, errlen, "cannot copy extended attribute %s: %s", a,
				 !nv && vl >= 0 ? "out of memory" : strerror(errno));
			rc = -1;
		}
	}
	free(val);
	free(names);
	return rc;
}

/* Owner first: chown clears the set-id bits, so the mode (with them)
 * comes after it, and capabilities after both. The times go last. */
static int copy_attrs(int fd, const char *src, const struct stat *like, char *err, size_t errlen)
{
	if (fchown(fd, like->st_uid, like->st_gid) < 0) {
		/* only root can give a file away: anyone else gets their own
		 * copy, but a set-id program must keep its owner */
		if (errno != EPERM || (like->st_mode & (S_ISUID | S_ISGID))) {
			snprintf(err, errlen, "cannot keep the owner %u:%u of a set-id file: %s",
				 (unsigned)like->st_uid, (unsigned)like->st_gid, strerror(errno));
			return -1;
		}
	}
	struct stat now;
	if (fchmod(fd, like->st_mode & 07777) < 0 || fstat(fd, &now) < 0) {
		snprintf(err, errlen, "chmod: %s", strerror(errno));
		return -1;
	}
	if ((now.st_mode & 07777) != (like->st_mode & 07777)) {
		snprintf(err, errlen, "cannot keep the mode %04o (got %04o)", (unsigned)(like->st_mode & 07777),
			 (unsigned)(now.st_mode & 07777));
		return -1;
	}
	if (src && copy_xattrs(src, fd, err, errlen) < 0)
		return -1;
	struct timespec ts[2] = { like->st_atim, like->st_mtim };
	if (futimens(fd, ts) < 0) {
		snprintf(err, errlen, "futimens: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* --root: the names of each file with several hard links, when every one
 * of them lies in the tree (lo_note_name). Such a file is optimized once
 * and each of its names then points at the new file. */
struct linkgroup {
	dev_t dev;
	ino_t ino;
	nlink_t nlink;
	unsigned n;
	char **names;         /* real paths */
};
static struct linkgroup *groups;
static unsigned ngroups;

static struct linkgroup *group_of(dev_t dev, ino_t ino)
{
	for (unsigned i = 0; i < ngroups; i++)
		if (groups[i].dev == dev && groups[i].ino == ino)
			return &groups[i];
	return NULL;
}

int lo_note_name(const char *path)
{
	char real[PATH_MAX];
	struct stat st;
	if (stat(path, &st) < 0 || st.st_nlink < 2 || !realpath(path, real))
		return 0;
	struct linkgroup *g = group_of(st.st_dev, st.st_ino);
	if (!g) {
		struct linkgroup *ng = realloc(groups, (ngroups + 1) * sizeof *ng);
		if (!ng)
			return -1;
		groups = ng;
		g = &groups[ngroups++];
		*g = (struct linkgroup){ st.st_dev, st.st_ino, st.st_nlink, 0, NULL };
	}
	for (unsigned i = 0; i < g->n; i++)
		if (!strcmp(g->names[i], real))
			return 0;
	char **nn = realloc(g->names, (g->n + 1) * sizeof *nn);
	if (!nn)
		return -1;
	g->names = nn;
	if (!(g->names[g->n] = strdup(real)))
		return -1;
	g->n++;
	return 0;
}

static const struct linkgroup *whole_group(const struct stat *st)
{
	const struct linkgroup *g = group_of(st->st_dev, st->st_ino);
	return g && g->n == st->st_nlink ? g : NULL;
}

int lo_all_names_known(const struct stat *st)
{
	return st->st_nlink < 2 || whole_group(st) != NULL;
}

/* The files of one run. */
struct staged {
	char *dst, *tmp;
	dev_t dev;
	ino_t ino;
	int had_old;
	const struct linkgroup *links; /* dst's other names point at it too */
};
static struct staged *stg;
static unsigned nstg, stgcap;
/* the entries with had_old, by file: every read of the run asks */
static struct filemap stg_by_file;

static struct staged *find_staged(dev_t dev, ino_t ino)
{
	uint32_t i;
	return filemap_get(&stg_by_file, dev, ino, &i) ? &stg[i] : NULL;
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* What reached the disk is what was meant to. */
static int read_back(const char *tmp, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	int fd = open(tmp, O_RDONLY | O_CLOEXEC);
	uint8_t chunk[65536];
	size_t at = 0;
	ssize_t n = 0;
	while (fd >= 0 && (n = read(fd, chunk, sizeof chunk)) > 0) {
		if ((size_t)n > len - at || memcmp(chunk, buf + at, (size_t)n))
			break;
		at += (size_t)n;
	}
	int bad = fd < 0 || n != 0 || at != len;
	if (fd >= 0)
		close(fd);
	if (bad)
		snprintf(err, errlen, "the written file reads back differently%s%s", fd < 0 || n < 0 ? ": " : "",
			 fd < 0 || n < 0 ? strerror(errno) : "");
	return bad ? -1 : 0;
}

int lo_stage(const char *dst, const char *src, const struct stat *like, const uint8_t *buf, size_t len,
	     char *err, size_t errlen)
{
	struct stat old;
	int had_old = stat(dst, &old) == 0;
	const struct linkgroup *links = had_old && old.st_nlink > 1 ? whole_group(&old) : NULL;
	if (had_old && old.st_nlink > 1 && !links) {
		snprintf(err, errlen, "has %lu hard links; replacing it would split them (optimize a copy instead)",
			 (unsigned long)old.st_nlink);
		return -1;
	}
	char tmp[PATH_MAX];
	const char *slash = strrchr(dst, '/');
	int dl = slash ? (int)(slash - dst) : 0;
	if (slash)
		snprintf(tmp, sizeof tmp, "%.*s/.linkopt.XXXXXX", dl ? dl : 1, dl ? dst : "/");
	else
		snprintf(tmp, sizeof tmp, ".linkopt.XXXXXX");
	if (nstg == stgcap) {
		unsigned nc = stgcap ? 2 * stgcap : 16;
		struct staged *n = realloc(stg, nc * sizeof *n);
		if (!n) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		stg = n;
		stgcap = nc;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create temporary file: %s", strerror(errno));
		return -1;
	}
	if (write_all(fd, buf, len) < 0) {
		snprintf(err, errlen, "write error: %s", strerror(errno));
		goto fail;
	}
	if (copy_attrs(fd, src, like, err, errlen) < 0)
		goto fail;
	if (fsync(fd) < 0) {
		snprintf(err, errlen, "fsync: %s", strerror(errno));
		goto fail;
	}
	int c = close(fd);
	fd = -1;
	if (c < 0) {
		snprintf(err, errlen, "close: %s", strerror(errno));
		goto fail;
	}
	if (read_back(tmp, buf, len, err, errlen) < 0)
		goto fail;
	/* a later pass over the same file replaces its earlier output */
	struct staged *s = had_old ? find_staged(old.st_dev, old.st_ino) : NULL;
	if (s) {
		unlink(s->tmp);
		free(s->tmp);
	} else {
		if (had_old && filemap_put(&stg_by_file, old.st_dev, old.st_ino, nstg) < 0) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		s = &stg[nstg++];
		s->dst = strdup(dst);
		s->dev = had_old ? old.st_dev : 0;
		s->ino = had_old ? old.st_ino : 0;
		s->had_old = had_old;
		s->links = links;
	}
	s->tmp = strdup(tmp);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}

int lo_load_elf(struct elf *e, const char *path)
{
	struct stat st;
	const struct staged *s = nstg && stat(path, &st) == 0 ? find_staged(st.st_dev, st.st_ino) : NULL;
	if (!s)
		return elf_load_file(e, path);
	int r = elf_load_file(e, s->tmp);
	e->path = path;
	return r;
}

unsigned lo_nstaged(void)
{
	return nstg;
}

static void drop_all(void)
{
	for (unsigned i = 0; i < nstg; i++) {
		free(stg[i].dst);
		free(stg[i].tmp);
	}
	free(stg);
	stg = NULL;
	nstg = stgcap = 0;
	filemap_free(&stg_by_file);
}

void lo_abort(void)
{
	for (unsigned i = 0; i < nstg; i++)
		unlink(stg[i].tmp);
	drop_all();
}

/* The other names of s's file (a hard-link group of --root), in order. */
static const char *other_name(const struct staged *s, unsigned k)
{
	for (unsigned i = 0; s->links && i < s->links->n; i++)
		if (strcmp(s->links->names[i], s->dst) && !k--)
			return s->links->names[i];
	return NULL;
}

/* Points name at the file target names, atomically (a new link renamed
 * over it). */
static int relink(const char *target, const char *tmp, const char *name)
{
	unlink(tmp);
	if (link(target, tmp) < 0)
		return -1;
	if (rename(tmp, name) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Each original is first kept under a second name (a hard link), so a
 * rename that fails halfway can be undone: the run changes every file or
 * none. The other names of a hard-link group are then pointed at the new
 * file, one by one, each atomically. */
int lo_commit(const char **failed, char *err, size_t errlen)
{
	static char name[PATH_MAX];
	char (*bak)[PATH_MAX] = calloc(nstg ? nstg : 1, sizeof *bak);
	unsigned *moved = calloc(nstg ? nstg : 1, sizeof *moved);
	char tmp[PATH_MAX + 16];
	unsigned linked = 0, renamed = 0;
	int rc = -1;
	if (!bak || !moved) {
		snprintf(err, errlen, "out of memory");
		snprintf(name, sizeof name, "%s", nstg ? stg[0].dst : "linkopt");
		goto undo;
	}
	for (; linked < nstg; linked++) {
		struct staged *s = &stg[linked];
		snprintf(bak[linked], PATH_MAX, "%s.old", s->tmp);
		if (s->had_old && link(s->dst, bak[linked]) < 0) {
			snprintf(err, errlen, "cannot keep the original while replacing it: %s", strerror(errno));
			snprintf(name, sizeof name, "%s", s->dst);
			goto undo;
		}
	}
	for (; renamed < nstg; renamed++) {
		struct staged *s = &stg[renamed];
		if (rename(s->tmp, s->dst) < 0) {
			snprintf(err, errlen, "rename: %s", strerror(errno));
			snprintf(name, sizeof name, "%s", s->dst);
			goto undo;
		}
		for (const char *o; (o = other_name(s, moved[renamed])); moved[renamed]++) {
			snprintf(tmp, sizeof tmp, "%s.link", s->tmp);
			if (relink(s->dst, tmp, o) < 0) {
				snprintf(err, errlen, "cannot point the hard link %s at the new file: %s", o,
					 strerror(errno));
				snprintf(name, sizeof name, "%s", s->dst);
				renamed++;
				goto undo;
			}
		}
	}
	rc = 0;
undo:
	for (unsigned i = 0; i < renamed && rc; i++) {
		if (stg[i].had_old) {
			snprintf(tmp, sizeof tmp, "%s.link", stg[i].tmp);
			for (unsigned k = 0; k < moved[i]; k++)
				relink(bak[i], tmp, other_name(&stg[i], k));
			rename(bak[i], stg[i].dst);
		} else {
			unlink(stg[i].dst);
		}
	}
	for (unsigned i = 0; i < linked; i++)
		if (stg[i].had_old)
			unlink(bak[i]);
	for (unsigned i = renamed; i < nstg; i++)
		unlink(stg[i].tmp);
	free(bak);
	free(moved);
	drop_all();
	*failed = name;
	return rc;
}
