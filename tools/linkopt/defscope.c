/* Finding the definitions of a name in a closure's objects (defscope.h):
 * defmap, a hash of the exported symbols of a range of objects, and
 * defscope, the same answers through the run's symbol index (objcache.h)
 * put in closure order. The bindings, the application view and the launch
 * record look names up through them. */
#include "defscope.h"

#include <stdlib.h>
#include <string.h>

#include "elfhash.h"
#include "objcache.h"

static int grow(struct defmap *m)
{
	size_t nsl = m->mask ? 2 * (m->mask + 1) : 1024;
	uint32_t *sl = calloc(nsl, sizeof *sl);
	if (!sl)
		return -1;
	for (size_t i = 0; m->slots && i <= m->mask; i++) {
		if (!m->slots[i])
			continue;
		uint32_t h = m->nodes[m->slots[i] - 1].hash;
		size_t j = h & (nsl - 1);
		while (sl[j])
			j = (j + 1) & (nsl - 1);
		sl[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = sl;
	m->mask = nsl - 1;
	return 0;
}

static size_t slot_of(const struct defmap *m, const char *name, uint32_t h)
{
	size_t j = h & m->mask;
	while (m->slots[j]) {
		const struct defnode *d = &m->nodes[m->slots[j] - 1];
		if (d->hash == h && !strcmp(d->name, name))
			break;
		j = (j + 1) & m->mask;
	}
	return j;
}

int defmap_build(struct defmap *m, const struct closure *c, unsigned first_lib)
{
	return defmap_build_range(m, c, first_lib, c->n);
}

int defmap_build_range(struct defmap *m, const struct closure *c, unsigned first_lib, unsigned end_lib)
{
	memset(m, 0, sizeof *m);
	size_t nnames = 0;
	for (unsigned l = first_lib; l < end_lib && l < c->n; l++) {
		const struct elf *e = &c->libs[l].e;
		for (uint32_t i = 1; i < e->nsyms; i++) {
			if (!elf_sym_exported(e, i))
				continue;
			if (m->n == m->cap) {
				size_t nc = m->cap ? 2 * m->cap : 4096;
				struct defnode *nn = realloc(m->nodes, nc * sizeof *nn);
				if (!nn)
					return -1;
				m->nodes = nn;
				m->cap = nc;
			}
			if (2 * (nnames + 1) > m->mask && grow(m) < 0)
				return -1;
			const char *name = elf_sym_name(e, i);
			uint32_t h = qb_gnu_hash(name);
			struct defnode *d = &m->nodes[m->n];
			*d = (struct defnode){ name, h, l, i, 0 };
			size_t j = slot_of(m, name, h);
			if (!m->slots[j]) {
				m->slots[j] = (uint32_t)++m->n;
				nnames++;
				continue;
			}
			uint32_t k = m->slots[j];
			while (m->nodes[k - 1].next)
				k = m->nodes[k - 1].next;
			m->nodes[k - 1].next = (uint32_t)++m->n;
		}
	}
	if (!m->slots && grow(m) < 0)
		return -1;
	return 0;
}

const struct defnode *defmap_find(const struct defmap *m, const char *name)
{
	size_t j = slot_of(m, name, qb_gnu_hash(name));
	return m->slots[j] ? &m->nodes[m->slots[j] - 1] : NULL;
}

void defmap_free(struct defmap *m)
{
	free(m->slots);
	free(m->nodes);
	memset(m, 0, sizeof *m);
}

int defscope_init(struct defscope *s, const struct closure *c, unsigned first, unsigned end)
{
	memset(s, 0, sizeof *s);
	s->c = c;
	s->first = first;
	s->end = end < c->n ? end : c->n;
	s->nat = objcache_nserial();
	s->at = malloc((s->nat ? s->nat : 1) * sizeof *s->at);
	if (!s->at)
		return -1;
	for (uint32_t k = 0; k < s->nat; k++)
		s->at[k] = -1;
	for (unsigned l = first; l < s->end && !s->use_map; l++) {
		struct cobj *o = c->libs[l].obj;
		/* an object twice in the range is listed twice by a defmap */
		if (!o || s->at[o->serial] >= 0)
			s->use_map = 1;
		else if (cobj_index(o) < 0)
			return -1;
		else
			s->at[o->serial] = (int32_t)l;
	}
	if (s->use_map)
		return defmap_build_range(&s->map, c, first, s->end);
	return 0;
}

static int push_def(struct defscope *s, size_t n, uint32_t lib, uint32_t sym)
{
	if (n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 64;
		struct defref *b = realloc(s->buf, nc * sizeof *b);
		if (!b)
			return -1;
		s->buf = b;
		s->cap = nc;
	}
	s->buf[n] = (struct defref){ lib, sym };
	return 0;
}

static int by_lib_sym(const void *a, const void *b)
{
	const struct defref *x = a, *y = b;
	if (x->lib != y->lib)
		return x->lib < y->lib ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

/* Puts s->buf[0..n) in closure order. A long list (a vague name every
 * library defines) goes by object: one object's definitions of a name are
 * one run of its chain, in symbol order (cobj_index), so each run is
 * moved whole, objects taken in closure order. */
static int order_defs(struct defscope *s, size_t n)
{
	struct defref *b = s->buf;
	if (n <= 16) {
		for (size_t i = 1; i < n; i++) {
			struct defref x = b[i];
			size_t j = i;
			while (j && (b[j - 1].lib > x.lib || (b[j - 1].lib == x.lib && b[j - 1].sym > x.sym))) {
				b[j] = b[j - 1];
				j--;
			}
			b[j] = x;
		}
		return 0;
	}
	if (!s->runat) {
		s->runat = malloc((s->end ? s->end : 1) * sizeof *s->runat);
		if (!s->runat)
			return -1;
		for (unsigned l = 0; l < s->end; l++)
			s->runat[l] = -1;
	}
	struct defref *o = malloc(n * sizeof *o);
	if (!o)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (s->runat[b[i].lib] < 0)
			s->runat[b[i].lib] = (int32_t)i;
	size_t k = 0;
	for (unsigned l = s->first; l < s->end; l++) {
		if (s->runat[l] < 0)
			continue;
		for (size_t i = (size_t)s->runat[l]; i < n && b[i].lib == l; i++)
			o[k++] = b[i];
		s->runat[l] = -1;
	}
	if (k == n)
		memcpy(b, o, n * sizeof *o);
	else  /* not in runs after all: the general way */
		qsort(b, n, sizeof *b, by_lib_sym);
	free(o);
	return 0;
}

int defscope_find(struct defscope *s, const char *name, const struct defref **out)
{
	size_t n = 0;
	*out = s->buf;
	if (s->use_map) {
		const struct defmap *m = &s->map;
		for (const struct defnode *d = defmap_find(m, name); d; d = d->next ? &m->nodes[d->next - 1] : NULL)
			if (push_def(s, n++, d->lib, d->sym) < 0)
				return -1;
		*out = s->buf;
		return (int)n;
	}
	int sorted = 1;
	for (uint32_t k = symindex_first(name, qb_gnu_hash(name)); k; k = symindex_def(k)->next) {
		const struct symdef *d = symindex_def(k);
		int32_t l = d->obj->serial < s->nat ? s->at[d->obj->serial] : -1;
		if (l < 0)
			continue;
		if (n && (s->buf[n - 1].lib > (uint32_t)l || (s->buf[n - 1].lib == (uint32_t)l && s->buf[n - 1].sym > d->sym)))
			sorted = 0;
		if (push_def(s, n++, (uint32_t)l, d->sym) < 0)
			return -1;
	}
	if (!sorted && order_defs(s, n) < 0)
		return -1;
	*out = s->buf;
	return (int)n;
}

void defscope_free(struct defscope *s)
{
	free(s->at);
	free(s->runat);
	free(s->buf);
	defmap_free(&s->map);
	memset(s, 0, sizeof *s);
}

/* Definitions of name in m; a lookup that runs out of memory finds none
 * and marks *oom (the caller then fails). */
unsigned find_defs(struct defscope *m, const char *name, const struct defref **d, int *oom)
{
	int n = defscope_find(m, name, d);
	if (n < 0) {
		*oom = 1;
		return 0;
	}
	return (unsigned)n;
}
