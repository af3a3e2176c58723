#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int write_atomic(const char *dst, const struct stat *like, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	const char *slash = strrchr(dst, '/');
	int dl = slash ? (int)(slash - dst) : 0;
	if (slash)
		snprintf(tmp, sizeof tmp, "%.*s/.linkopt.XXXXXX", dl ? dl : 1, dl ? dst : "/");
	else
		snprintf(tmp, sizeof tmp, ".linkopt.XXXXXX");
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
	if (fchmod(fd, like->st_mode & 07777) < 0) {
		snprintf(err, errlen, "chmod: %s", strerror(errno));
		goto fail;
	}
	/* only root can give a file away; anyone else keeps their own copy */
	if (fchown(fd, like->st_uid, like->st_gid) < 0 && errno != EPERM) {
		snprintf(err, errlen, "chown: %s", strerror(errno));
		goto fail;
	}
	struct timespec ts[2] = { like->st_atim, like->st_mtim };
	if (futimens(fd, ts) < 0) {
		snprintf(err, errlen, "futimens: %s", strerror(errno));
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
