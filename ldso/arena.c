/* The loader's memory. During start-up it comes from one region, piece
 * after piece, never given back: every object's records share the few
 * fresh pages they fill, where malloc would spread them over a group of
 * pages (and a mapping) for each size it serves; start-up keeps them to
 * the end anyway. Past start-up, and when the region is full, malloc's. */
#include <string.h>
#include <sys/mman.h>
#include "ldso.h"

/* under 2 MiB: an anonymous mapping that large may be given a huge page */
#define ARENA_SIZE ((size_t)1 << 20)
/* Pages are made ready this many bytes at a time: one call for eight
 * pages instead of a fault each (two, when a page is read before it is
 * written, as a memo's slots are). */
#define READY_STEP ((size_t)32 << 10)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static unsigned char *lo, *cur, *end, *ready;

/* Before Linux 5.14 (or where the advice is ignored) the pages fault in
 * one by one, as they would without it. */
static void make_ready(void)
{
	unsigned char *to = lo + ((size_t)(cur - lo + READY_STEP - 1) & -READY_STEP);
	if (to > end)
		to = end;
	ready = madvise(ready, (size_t)(to - ready), MADV_POPULATE_WRITE) ? end : to;
}

/* Zeroed: nothing in the region is taken twice. */
hidden void *qb_calloc(size_t n, size_t each)
{
	if (each && n > (size_t)-1 / each)
		return 0;
	size_t want = (n * each + 15) & -16;
	if (!lo && !qb.started) {
		unsigned char *m = mmap(0, ARENA_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		lo = cur = end = ready = m == MAP_FAILED ? (unsigned char *)-1 : m;
		end += m == MAP_FAILED ? 0 : ARENA_SIZE;
	}
	if (qb.started || !want || want > (size_t)(end - cur))
		return __libc_calloc(n, each);
	cur += want;
	if (cur > ready)
		make_ready();
	return cur - want;
}

/* A piece moved out takes the bytes up to the region's last piece: its
 * own (fewer) are among them. */
hidden void *qb_realloc(void *p, size_t n)
{
	if (!p || (unsigned char *)p < lo || (unsigned char *)p >= end)
		return p ? __libc_realloc(p, n) : qb_calloc(n, 1);
	size_t have = (size_t)(cur - (unsigned char *)p);
	void *q = qb_calloc(n, 1);
	if (q)
		memcpy(q, p, n < have ? n : have);
	return q;
}

hidden void qb_free(void *p)
{
	if ((unsigned char *)p < lo || (unsigned char *)p >= end)
		__libc_free(p);
}

hidden size_t qb_arena_taken(const void **region)
{
	*region = lo;
	return end > lo ? (size_t)(cur - lo) : 0;
}
