/* Small hash maps linkopt uses so that work over a whole set of files
 * (hundreds of libraries, each resolved against a closure of hundreds)
 * finds things by key instead of walking lists. Keys are not copied. */
#ifndef LINKOPT_INDEX_H
#define LINKOPT_INDEX_H

#include <stddef.h>
#include <stdint.h>

/* name -> value; the first value put for a name stays. */
struct strmap {
	struct strmap_slot { const char *key; uint32_t hash, val; } *slots;
	size_t mask, n;
};

/* 0, or -1 when out of memory. */
int strmap_put(struct strmap *m, const char *key, uint32_t val);
/* 1 and *val when key is there, else 0. */
int strmap_get(const struct strmap *m, const char *key, uint32_t *val);
void strmap_free(struct strmap *m);

/* (dev, ino) -> value; the first value put for a file stays. */
struct filemap {
	struct filemap_slot { unsigned long long dev, ino; uint32_t val, used; } *slots;
	size_t mask, n;
};

int filemap_put(struct filemap *m, unsigned long long dev, unsigned long long ino, uint32_t val);
int filemap_get(const struct filemap *m, unsigned long long dev, unsigned long long ino, uint32_t *val);
/* Forgets a file (its later put starts afresh). */
void filemap_del(struct filemap *m, unsigned long long dev, unsigned long long ino);
void filemap_free(struct filemap *m);

#endif
