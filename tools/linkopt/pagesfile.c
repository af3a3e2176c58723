/* Reading the loader's record of the pages a run read (pagesfile.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pagesfile.h"

struct pobj {
	unsigned long long dev, ino, size;
	char *real;             /* its real path then, NULL when gone */
	struct qb_range *r;
	size_t n, cap;
};

struct pagesfile {
	struct pobj *o;
	size_t n, cap;
	struct qb_range *found; /* pagesfile_find's answer */
	size_t nfound, capfound;
};

static int push_range(struct qb_range **r, size_t *n, size_t *cap, uint64_t off, uint64_t len)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		struct qb_range *nr = realloc(*r, c * sizeof *nr);
		if (!nr)
			return -1;
		*r = nr, *cap = c;
	}
	(*r)[(*n)++] = (struct qb_range){ off, len };
	return 0;
}

void pagesfile_free(struct pagesfile *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < pf->n; i++)
		free(pf->o[i].real), free(pf->o[i].r);
	free(pf->o);
	free(pf->found);
	free(pf);
}

/* One line, without its newline: 0, or -1 when malformed. */
static int parse_line(struct pagesfile *pf, char *s)
{
	unsigned long long a, b, c;
	int at = -1;
	if (!*s || *s == '#')
		return 0;
	if (sscanf(s, "object %llx %llx %llx %n", &a, &b, &c, &at) == 3 && at > 0 && s[at]) {
		if (pf->n == pf->cap) {
			size_t cap = pf->cap ? 2 * pf->cap : 16;
			struct pobj *no = realloc(pf->o, cap * sizeof *no);
			if (!no)
				return -1;
			pf->o = no, pf->cap = cap;
		}
		char real[PATH_MAX];
		pf->o[pf->n++] = (struct pobj){ a, b, c, realpath(s + at, real) ? strdup(real) : NULL, NULL, 0, 0 };
		return 0;
	}
	if (sscanf(s, "range %llx %llx%n", &a, &b, &at) == 2 && at > 0 && !s[at] && pf->n) {
		struct pobj *o = &pf->o[pf->n - 1];
		if (!b || a + b < a || a + b > o->size)
			return -1;
		return push_range(&o->r, &o->n, &o->cap, a, b);
	}
	return -1;
}

struct pagesfile *pagesfile_read(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %m", path);
		return NULL;
	}
	struct pagesfile *pf = calloc(1, sizeof *pf);
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t got;
	while (pf && (got = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (got && line[got - 1] == '\n')
			line[--got] = 0;
		if ((size_t)got != strlen(line) || parse_line(pf, line) < 0) {
			snprintf(err, errlen, "%s: line %zu: not a record of pages (LD_RECORD_PAGES)", path, lineno);
			pagesfile_free(pf);
			pf = NULL;
		}
	}
	if (!pf && !lineno)
		snprintf(err, errlen, "out of memory");
	free(line);
	fclose(f);
	return pf;
}

static int by_offset(const void *a, const void *b)
{
	const struct qb_range *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

const struct qb_range *pagesfile_find(const struct pagesfile *cpf, const char *path, size_t *n)
{
	struct pagesfile *pf = (struct pagesfile *)cpf;
	struct stat st;
	char real[PATH_MAX];
	*n = 0;
	if (!pf || stat(path, &st) || !realpath(path, real))
		return NULL;
	pf->nfound = 0;
	for (size_t i = 0; i < pf->n; i++) {
		const struct pobj *o = &pf->o[i];
		int same = o->size == (unsigned long long)st.st_size &&
			   ((o->dev == (unsigned long long)st.st_dev && o->ino == (unsigned long long)st.st_ino) ||
			    (o->real && !strcmp(o->real, real)));
		for (size_t k = 0; same && k < o->n; k++)
			if (push_range(&pf->found, &pf->nfound, &pf->capfound, o->r[k].off, o->r[k].len) < 0)
				return NULL;
	}
	*n = pf->nfound;
	return pf->nfound ? pf->found : NULL;
}

size_t pagesfile_ranges(const struct qb_range *rec, size_t n, const struct qb_range *must, size_t nmust,
	uint64_t fsize, struct qb_range *out, size_t max)
{
	struct qb_range *all = malloc((n + nmust + 1) * sizeof *all);
	size_t k = 0;
	if (!all || !max)
		goto done;
	for (size_t i = 0; i < n + nmust; i++) {
		struct qb_range r = i < n ? rec[i] : must[i - n];
		if (r.off >= fsize || !r.len)
			continue;
		if (r.len > fsize - r.off)
			r.len = fsize - r.off;
		all[k++] = r;
	}
	qsort(all, k, sizeof *all, by_offset);
	size_t m = 0;
	for (size_t i = 0; i < k; i++) {
		if (m && all[i].off <= out[m - 1].off + out[m - 1].len + PAGES_GAP) {
			uint64_t end = all[i].off + all[i].len;
			if (end > out[m - 1].off + out[m - 1].len)
				out[m - 1].len = end - out[m - 1].off;
			continue;
		}
		if (m < max) {
			out[m++] = all[i];
			continue;
		}
		/* full: join the two closest neighbours, this one included */
		size_t best = m - 1;
		uint64_t gap = all[i].off - (out[m - 1].off + out[m - 1].len);
		for (size_t j = 0; j + 1 < m; j++) {
			uint64_t g = out[j + 1].off - (out[j].off + out[j].len);
			if (g < gap)
				gap = g, best = j;
		}
		if (best == m - 1) {
			out[m - 1].len = all[i].off + all[i].len - out[m - 1].off;
		} else {
			out[best].len = out[best + 1].off + out[best + 1].len - out[best].off;
			memmove(out + best + 1, out + best + 2, (m - best - 2) * sizeof *out);
			out[m - 1] = all[i];
		}
	}
	k = m;
done:
	free(all);
	return k;
}
