#include "file.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, k;
	char *b = malloc(cap + 1);
	while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			char *nb = realloc(b, 2 * cap + 1);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (!b)
		return NULL;
	b[n] = 0;
	if (len)
		*len = n;
	return b;
}

char *must_read_file(const char *path, size_t *len)
{
	errno = 0;
	char *b = read_file(path, len);
	cr_assert_not_null(b, "cannot read %s: %s", path, strerror(errno));
	return b;
}

int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = read_file(a, &la), *y = read_file(b, &lb);
	int same = x && y && la == lb && !memcmp(x, y, la);
	free(x);
	free(y);
	return same;
}

/* The directories a test made, removed when its process exits (a failed
 * assertion exits too; a crash leaves them to look at, as does
 * QB_KEEP_TMP=1). Only the process that made them removes them: a child
 * a test forks may exit while the test still uses them. */
static char *made[64];
static unsigned nmade;
static pid_t maker;

static void remove_made(void)
{
	if (getpid() != maker || getenv("QB_KEEP_TMP"))
		return;
	for (unsigned i = 0; i < nmade; i++) {
		char cmd[PATH_MAX + 16];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", made[i]);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", made[i]);
	}
}

char *make_tmpdir(const char *tmpl)
{
	char *d = strdup(tmpl ? tmpl : "/tmp/qbtest.XXXXXX");
	cr_assert_not_null(d, "out of memory");
	cr_assert_not_null(mkdtemp(d), "mkdtemp %s: %s", d, strerror(errno));
	if (maker != getpid()) {
		maker = getpid();
		nmade = 0;
		atexit(remove_made);
	}
	if (nmade < sizeof made / sizeof *made && !strchr(d, '\''))
		made[nmade++] = strdup(d);
	return d;
}
