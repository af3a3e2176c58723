/* The small hash maps of index.h: a name to a value (strmap) and a file,
 * by device and inode, to a value (filemap); open addressing, linear
 * probing. */
#include "index.h"

#include <stdlib.h>
#include <string.h>

#include "elfhash.h"

/* Linear probing at most half full. */

static int strmap_grow(struct strmap *m)
{
	size_t ncap = m->slots ? 2 * (m->mask + 1) : 64;
	struct strmap_slot *s = calloc(ncap, sizeof *s);
	if (!s)
		return -1;
	for (size_t i = 0; m->slots && i <= m->mask; i++) {
		if (!m->slots[i].key)
			continue;
		size_t j = m->slots[i].hash & (ncap - 1);
		while (s[j].key)
			j = (j + 1) & (ncap - 1);
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->mask = ncap - 1;
	return 0;
}

static struct strmap_slot *strmap_slot(const struct strmap *m, const char *key, uint32_t h)
{
	size_t j = h & m->mask;
	while (m->slots[j].key && (m->slots[j].hash != h || strcmp(m->slots[j].key, key)))
		j = (j + 1) & m->mask;
	return &m->slots[j];
}

int strmap_put(struct strmap *m, const char *key, uint32_t val)
{
	if ((!m->slots || 2 * (m->n + 1) > m->mask + 1) && strmap_grow(m) < 0)
		return -1;
	uint32_t h = qb_gnu_hash(key);
	struct strmap_slot *s = strmap_slot(m, key, h);
	if (!s->key) {
		*s = (struct strmap_slot){ key, h, val };
		m->n++;
	}
	return 0;
}

int strmap_get(const struct strmap *m, const char *key, uint32_t *val)
{
	if (!m->slots)
		return 0;
	const struct strmap_slot *s = strmap_slot(m, key, qb_gnu_hash(key));
	if (!s->key)
		return 0;
	*val = s->val;
	return 1;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

static size_t file_hash(unsigned long long dev, unsigned long long ino)
{
	uint64_t x = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4full;
	return (size_t)(x ^ x >> 29);
}

static int filemap_grow(struct filemap *m)
{
	size_t ncap = m->slots ? 2 * (m->mask + 1) : 64;
	struct filemap_slot *s = calloc(ncap, sizeof *s);
	if (!s)
		return -1;
	for (size_t i = 0; m->slots && i <= m->mask; i++) {
		if (!m->slots[i].used)
			continue;
		size_t j = file_hash(m->slots[i].dev, m->slots[i].ino) & (ncap - 1);
		while (s[j].used)
			j = (j + 1) & (ncap - 1);
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->mask = ncap - 1;
	return 0;
}

static size_t filemap_at(const struct filemap *m, unsigned long long dev, unsigned long long ino)
{
	size_t j = file_hash(dev, ino) & m->mask;
	while (m->slots[j].used && (m->slots[j].dev != dev || m->slots[j].ino != ino))
		j = (j + 1) & m->mask;
	return j;
}

int filemap_put(struct filemap *m, unsigned long long dev, unsigned long long ino, uint32_t val)
{
	if ((!m->slots || 2 * (m->n + 1) > m->mask + 1) && filemap_grow(m) < 0)
		return -1;
	struct filemap_slot *s = &m->slots[filemap_at(m, dev, ino)];
	if (!s->used) {
		*s = (struct filemap_slot){ dev, ino, val, 1 };
		m->n++;
	}
	return 0;
}

int filemap_get(const struct filemap *m, unsigned long long dev, unsigned long long ino, uint32_t *val)
{
	if (!m->slots)
		return 0;
	const struct filemap_slot *s = &m->slots[filemap_at(m, dev, ino)];
	if (!s->used)
		return 0;
	*val = s->val;
	return 1;
}

void filemap_del(struct filemap *m, unsigned long long dev, unsigned long long ino)
{
	if (!m->slots)
		return;
	size_t i = filemap_at(m, dev, ino);
	if (!m->slots[i].used)
		return;
	m->slots[i].used = 0;
	m->n--;
	/* close the gap: move back each later entry of the run that its
	 * probe would no longer reach */
	for (size_t j = (i + 1) & m->mask; m->slots[j].used; j = (j + 1) & m->mask) {
		size_t home = file_hash(m->slots[j].dev, m->slots[j].ino) & m->mask;
		if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
			m->slots[i] = m->slots[j];
			m->slots[j].used = 0;
			i = j;
		}
	}
}

void filemap_free(struct filemap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}
