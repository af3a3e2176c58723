/* What the tests/muslapi programs share: a private directory under /tmp
 * (their output never names it, so runs under two loaders compare equal)
 * and one way to report a failed call. */
#ifndef QB_MUSLAPI_MA_H
#define QB_MUSLAPI_MA_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline char *ma_dir(void)
{
	static char dir[64];
	return dir;
}

static inline void ma_cleanup(void)
{
	char cmd[96];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", ma_dir());
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", ma_dir());
}

static inline void ma_enter(const char *name)
{
	snprintf(ma_dir(), 64, "/tmp/qb-%s.XXXXXX", name);
	if (!mkdtemp(ma_dir()) || chdir(ma_dir())) {
		perror("mkdtemp");
		exit(2);
	}
	atexit(ma_cleanup);
}

/* a call's result as the output shows it: the value, or the errno name
 * of the few errors these programs expect */
static inline const char *ma_err(int e)
{
	switch (e) {
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EAGAIN: return "EAGAIN";
	case ENOSYS: return "ENOSYS";
	default: return strerror(e);
	}
}

static inline void ma_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

#endif
