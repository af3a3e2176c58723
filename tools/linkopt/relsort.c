/* Grouping an object's symbolic non-PLT relocations by symbol (relsort.h),
 * within the slots they already occupy, so that consecutive relocations
 * reuse one lookup. */
#include "relsort.h"

#include <stdlib.h>

struct item {
	struct rel r;
	uint64_t pos;
};

static int by_sym(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	if (x->r.sym != y->r.sym)
		return x->r.sym < y->r.sym ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

long rel_sort(struct elf *e)
{
	size_t re = elf_relent(e, e->rel_isrela);
	uint64_t n = e->rel_size / re, m = 0;
	if (!n)
		return 0;
	struct item *it = malloc(n * sizeof *it);
	uint64_t *slot = malloc(n * sizeof *slot);
	if (!it || !slot) {
		free(it);
		free(slot);
		return -1;
	}
	for (uint64_t k = 0; k < n; k++) {
		struct rel r;
		elf_rel_get(e, e->rel_off + k * re, e->rel_isrela, &r);
		if (!r.sym)
			continue;
		it[m].r = r;
		it[m].pos = k;
		slot[m++] = k;
	}
	qsort(it, m, sizeof *it, by_sym);
	long moved = 0;
	for (uint64_t k = 0; k < m; k++) {
		if (it[k].pos != slot[k])
			moved++;
		elf_rel_put(e, e->rel_off + slot[k] * re, e->rel_isrela, &it[k].r);
	}
	free(it);
	free(slot);
	return moved;
}
