/* The loaded objects by name and by file: every DT_NEEDED entry asks
 * whether its library is loaded already, and every file the search finds
 * whether it is one of them. Asked of the object list, each question
 * costs a walk of every object, and a program's start-up as many walks as
 * it has DT_NEEDED entries: quadratic in its libraries. One table keyed
 * by the names' GNU hashes (and by device and inode) answers in a probe or
 * two. */
#include <string.h>
#include "ldso.h"
#include "namehash.h"

enum { BY_SHORTNAME = 1, BY_SONAME, BY_NAME, BY_FILE };

struct slot {
	struct dso *p;    /* 0: empty; TOMB: removed */
	uint32_t h;
	unsigned char by;
};
#define TOMB ((struct dso *)-1)

static struct slot *tab;
static size_t cap, used;   /* used counts tombstones: they lengthen probes */
static size_t seq;         /* load order, for the first of several matches */

static uint32_t file_hash(uint64_t dev, uint64_t ino)
{
	uint64_t x = (dev * 0x9e3779b97f4a7c15u) ^ ino;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9u;
	return (uint32_t)(x ^ x >> 32);
}

static void put(struct slot *t, size_t mask, struct dso *p, uint32_t h, unsigned char by)
{
	size_t i = h & mask;
	while (t[i].p && t[i].p != TOMB)
		i = (i + 1) & mask;
	t[i] = (struct slot){ p, h, by };
	used++;
}

/* Room for n more entries, at most half the slots in use. */
static int reserve(size_t n)
{
	if (2 * (used + n) <= cap)
		return 1;
	size_t ncap = cap ? cap : 64, live = 0;
	for (size_t i = 0; i < cap; i++)
		live += tab[i].p && tab[i].p != TOMB;
	while (2 * (live + n) > ncap)
		ncap *= 2;
	struct slot *t = qb_calloc(ncap, sizeof *t);
	if (!t)
		return 0;
	for (size_t i = 0; i < cap; i++)
		if (tab[i].p && tab[i].p != TOMB)
			put(t, ncap - 1, tab[i].p, tab[i].h, tab[i].by);
	qb_free(tab);
	tab = t;
	cap = ncap;
	used = live;
	return 1;
}

static const char *name_of(const struct dso *p, unsigned char by)
{
	return by == BY_SHORTNAME ? p->shortname : by == BY_SONAME ? p->soname : p->name;
}

hidden void qb_index_add(struct dso *p)
{
	p->seq = ++seq;
	if (!reserve(4))
		qb_error("%s: out of memory", p->name);
	for (unsigned char by = BY_SHORTNAME; by <= BY_NAME; by++)
		if (name_of(p, by))
			put(tab, cap - 1, p, qb_name_hash(name_of(p, by)), by);
	if (p->id.ino)
		put(tab, cap - 1, p, file_hash(p->id.dev, p->id.ino), BY_FILE);
}

static void drop(const struct dso *p, uint32_t h)
{
	for (size_t i = h & (cap - 1); tab[i].p; i = (i + 1) & (cap - 1))
		if (tab[i].p == p && tab[i].h == h)
			tab[i].p = TOMB;
}

hidden void qb_index_remove(struct dso *p)
{
	if (!cap)
		return;
	for (unsigned char by = BY_SHORTNAME; by <= BY_NAME; by++)
		if (name_of(p, by))
			drop(p, qb_name_hash(name_of(p, by)));
	if (p->id.ino)
		drop(p, file_hash(p->id.dev, p->id.ino));
}

/* The first object in load order that was asked for under name, or whose
 * DT_SONAME (name without a slash) or path is name. */
hidden struct dso *qb_find_loaded(const char *name)
{
	int path = -1; /* does name hold a slash? asked only of a soname's match */
	struct dso *best = 0;
	if (!cap)
		return 0;
	uint32_t h = qb_name_hash(name);
	for (size_t i = h & (cap - 1); tab[i].p; i = (i + 1) & (cap - 1)) {
		const struct slot *s = &tab[i];
		if (s->p == TOMB || s->h != h || s->by == BY_FILE || (best && s->p->seq >= best->seq) ||
		    (s->by == BY_SONAME && (path < 0 ? (path = strchr(name, '/') != 0) : path)))
			continue;
		if (qb_names_equal(name_of(s->p, s->by), name))
			best = s->p;
	}
	return best;
}

/* The loaded object mapped from the file with this device and inode. */
hidden struct dso *qb_find_file(uint64_t dev, uint64_t ino)
{
	if (!cap)
		return 0;
	uint32_t h = file_hash(dev, ino);
	for (size_t i = h & (cap - 1); tab[i].p; i = (i + 1) & (cap - 1)) {
		const struct slot *s = &tab[i];
		if (s->p != TOMB && s->by == BY_FILE && s->h == h && s->p->id.dev == dev && s->p->id.ino == ino)
			return s->p;
	}
	return 0;
}
