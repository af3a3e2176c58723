/* linkopt --interposers: every symbol that more than one object of a
 * file's closure defines, with the objects defining it in closure order:
 * the names a user may want in --interpose-list. Changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appview.h"
#include "defscope.h"
#include "linkopt.h"

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct defnode *const *)a)->name, (*(const struct defnode *const *)b)->name);
}

int interposers_file(const char *path, const struct opts *o)
{
	struct elf e;
	if (elf_load_file(&e, path) < 0) {
		int r = report(path, "%s", e.err);
		elf_free(&e);
		return r;
	}
	struct closure c;
	char err[512];
	if (e.dyn_ph < 0 || closure_build(&e, &o->so, &c, err, sizeof err) < 0) {
		int r = report(path, "%s", e.dyn_ph < 0 ? "not dynamically linked (no PT_DYNAMIC)" : err);
		if (e.dyn_ph >= 0)
			closure_free(&c);
		elf_free(&e);
		return r;
	}
	struct defmap m;
	if (defmap_build(&m, &c, 0) < 0) {
		closure_free(&c);
		elf_free(&e);
		return report(path, "out of memory");
	}
	/* heads of chains whose definitions span more than one object */
	const struct defnode **multi = malloc((m.n ? m.n : 1) * sizeof *multi);
	size_t nm = 0;
	for (size_t s = 0; multi && s <= m.mask; s++) {
		if (!m.slots[s])
			continue;
		const struct defnode *d = &m.nodes[m.slots[s] - 1];
		for (const struct defnode *x = d; x->next; x = &m.nodes[x->next - 1])
			if (m.nodes[x->next - 1].lib != d->lib) {
				multi[nm++] = d;
				break;
			}
	}
	if (multi)
		qsort(multi, nm, sizeof *multi, by_name);
	for (size_t k = 0; k < nm; k++) {
		printf("%s:", multi[k]->name);
		unsigned last = ~0u;
		for (const struct defnode *x = multi[k]; x; x = x->next ? &m.nodes[x->next - 1] : NULL)
			if (x->lib != last) {
				printf(" %s", c.libs[x->lib].path);
				last = x->lib;
			}
		printf("\n");
	}
	free(multi);
	defmap_free(&m);
	closure_free(&c);
	elf_free(&e);
	return LO_OK;
}
