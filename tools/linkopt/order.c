/* Ordering a run's files so that libraries come before the objects that
 * need them (order.h): a depth-first placement over DT_NEEDED names,
 * matched against each file's SONAME or base name. */
#define _GNU_SOURCE
#include "order.h"

#include <stdlib.h>
#include <string.h>

#include "elffile.h"

struct node {
	char *file;
	char *name;       /* SONAME, else the file's base name */
	char **needs;     /* DT_NEEDED names */
	unsigned nneeds;
	int state;        /* 0 new, 1 on the path, 2 placed */
};

static int read_node(struct node *nd)
{
	struct elf e;
	if (elf_load_file(&e, nd->file) < 0 || e.dyn_ph < 0) {
		elf_free(&e);
		return -1;
	}
	const char *base = strrchr(nd->file, '/');
	nd->name = strdup(base ? base + 1 : nd->file);
	nd->needs = calloc(e.ndyn ? e.ndyn : 1, sizeof *nd->needs);
	for (unsigned i = 0; nd->needs && i < e.ndyn; i++) {
		const char *s = elf_dynstr(&e, e.dyn[i].d_un.d_val);
		if (!s)
			continue;
		if (e.dyn[i].d_tag == DT_NEEDED)
			nd->needs[nd->nneeds++] = strdup(s);
		else if (e.dyn[i].d_tag == DT_SONAME) {
			free(nd->name);
			nd->name = strdup(s);
		}
	}
	elf_free(&e);
	return nd->name && nd->needs ? 0 : -1;
}

/* The nodes by name, so that a name finds its nodes without a walk over
 * all of them: sorted by (name, index), a name's nodes are one run. */
struct byname {
	const struct node *v;
	int *ix;
	int n;
};

static int cmp_node(const void *a, const void *b, void *arg)
{
	const struct node *v = arg;
	int i = *(const int *)a, j = *(const int *)b;
	int c = strcmp(v[i].name, v[j].name);
	return c ? c : (i > j) - (i < j);
}

/* The first position of name in the index, or n. */
static int first_named(const struct byname *b, const char *name)
{
	int lo = 0, hi = b->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(b->v[b->ix[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->n && !strcmp(b->v[b->ix[lo]].name, name) ? lo : b->n;
}

/* Depth-first: a node is placed after everything it needs (the nodes of
 * each needed name in their order). */
static int place(struct node *v, const struct byname *b, int i, char **out, int *k)
{
	if (v[i].state == 2)
		return 1;
	if (v[i].state == 1)
		return 0;  /* cycle */
	v[i].state = 1;
	int ok = 1;
	for (unsigned d = 0; d < v[i].nneeds; d++)
		for (int p = first_named(b, v[i].needs[d]); p < b->n && !strcmp(v[b->ix[p]].name, v[i].needs[d]); p++)
			if (b->ix[p] != i)
				ok &= place(v, b, b->ix[p], out, k);
	v[i].state = 2;
	out[(*k)++] = v[i].file;
	return ok;
}

int order_by_needs(char **files, int n)
{
	struct node *v = calloc(n ? n : 1, sizeof *v);
	char **out = calloc(n ? n : 1, sizeof *out);
	struct byname b = { v, calloc(n ? n : 1, sizeof *b.ix), 0 };
	int ok = v && out && b.ix;
	for (int i = 0; ok && i < n; i++) {
		v[i].file = files[i];
		if (read_node(&v[i]) < 0)
			ok = 0;
	}
	if (ok) {
		for (int i = 0; i < n; i++)
			b.ix[b.n++] = i;
		qsort_r(b.ix, b.n, sizeof *b.ix, cmp_node, v);
		/* Files no other file needs go last: programs, and modules,
		 * which record the identity of their parent in the program's
		 * load (tools/linkopt/appview.c) without needing it. */
		char *needed = calloc(n ? n : 1, 1);
		for (int i = 0; needed && i < n; i++)
			for (unsigned d = 0; d < v[i].nneeds; d++)
				for (int p = first_named(&b, v[i].needs[d]);
				     p < b.n && !strcmp(v[b.ix[p]].name, v[i].needs[d]); p++)
					if (b.ix[p] != i)
						needed[b.ix[p]] = 1;
		int k = 0;
		for (int last = 0; last < 2; last++)
			for (int i = 0; i < n; i++)
				if (!needed || (needed[i] == 0) == last)
					ok &= place(v, &b, i, out, &k);
		free(needed);
		memcpy(files, out, n * sizeof *files);
	}
	for (int i = 0; v && i < n; i++) {
		for (unsigned d = 0; d < v[i].nneeds; d++)
			free(v[i].needs[d]);
		free(v[i].needs);
		free(v[i].name);
	}
	free(b.ix);
	free(v);
	free(out);
	return ok;
}
