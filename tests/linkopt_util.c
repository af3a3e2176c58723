#include "linkopt_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *lot_tmpdir(void)
{
	char *t = strdup("/tmp/linkopt-test.XXXXXX");
	if (!t || !mkdtemp(t))
		abort();
	return t;
}

char *lot_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);
	size_t k;
	while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			cap *= 2;
			b = realloc(b, cap + 1);
		}
	}
	fclose(f);
	if (b)
		b[n] = 0;
	if (len)
		*len = n;
	return b;
}

struct run lot_sh(const char *fmt, ...)
{
	char cmd[8192], full[9000];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	char *d = lot_tmpdir();
	snprintf(full, sizeof full, "( %s ) >%s/out 2>%s/err", cmd, d, d);
	int st = system(full);
	struct run r;
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	char p[4200];
	snprintf(p, sizeof p, "%s/out", d);
	r.out = lot_read(p, NULL);
	unlink(p);
	snprintf(p, sizeof p, "%s/err", d);
	r.err = lot_read(p, NULL);
	unlink(p);
	rmdir(d);
	free(d);
	if (!r.out)
		r.out = strdup("");
	if (!r.err)
		r.err = strdup("");
	return r;
}

void lot_run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

void lot_copy_variant(const char *variant, const char *dir)
{
	struct run r = lot_sh("cp -p %s/%s/prog %s/%s/liba.so %s/%s/libb.so %s/%s/libb2.so %s/",
			      LOT_DIR, variant, LOT_DIR, variant, LOT_DIR, variant, LOT_DIR, variant, dir);
	if (r.status)
		abort();
	lot_run_free(&r);
}

int lot_same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = lot_read(a, &la), *y = lot_read(b, &lb);
	int same = x && y && la == lb && !memcmp(x, y, la);
	free(x);
	free(y);
	return same;
}

const char *lot_loader_prefix(const char *variant)
{
	if (!strncmp(variant, "g32", 3))
		return "/usr/i686-linux-gnu/lib/ld-linux.so.2 --library-path /usr/i686-linux-gnu/lib";
	return "";
}

unsigned lot_count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

const char *lot_new_line(const char *before, const char *after)
{
	static char line[1024];
	while (*after) {
		size_t l = strcspn(after, "\n");
		snprintf(line, sizeof line, "%.*s", (int)l, after);
		int found = 0;
		for (const char *p = before; (p = strstr(p, line)); p++)
			if ((p == before || p[-1] == '\n') && (p[l] == '\n' || !p[l])) {
				found = 1;
				break;
			}
		if (!found)
			return line;
		after += l;
		if (*after)
			after++;
	}
	return NULL;
}
