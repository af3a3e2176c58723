#define _GNU_SOURCE
#include "output.h"

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

int write_atomic(const char *dst, const char *src, const struct stat *like, const uint8_t *buf, size_t len,
		 char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	const char *slash = strrchr(dst, '/');
	int dl = slash ? (int)(slash - dst) : 0;
	if (slash)
		snprintf(tmp, sizeof tmp, "%.*s/.linkopt.XXXXXX", dl ? dl : 1, dl ? dst : "/");
	else
		snprintf(tmp, sizeof tmp, ".linkopt.XXXXXX");
	struct stat old;
	if (stat(dst, &old) == 0 && old.st_nlink > 1) {
		snprintf(err, errlen, "has %lu hard links; replacing it would split them", (unsigned long)old.st_nlink);
		return -1;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create temporary file: %s", strerror(errno));
		return -1;
	}
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "write error: %s", strerror(errno));
			goto fail;
		}
		done += (size_t)n;
	}
	if (copy_attrs(fd, src, like, err, errlen) < 0)
		goto fail;
	if (fsync(fd) < 0) {
		snprintf(err, errlen, "fsync: %s", strerror(errno));
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		snprintf(err, errlen, "close: %s", strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, dst) < 0) {
		snprintf(err, errlen, "rename: %s", strerror(errno));
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}
