#include "startread.h"

#include <string.h>

#define LOAD 1      /* PT_LOAD */

static void add(struct qb_range *out, size_t *k, uint64_t off, uint64_t len)
{
	if (len > QB_RANGE_CAP)
		len = QB_RANGE_CAP;
	if (!len || *k == QB_START_RANGES || off + len < off)
		return;
	out[(*k)++] = (struct qb_range){ off, len };
}

size_t qb_start_ranges(const struct qb_seg *seg, size_t n, struct qb_range *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (seg[i].type == LOAD)
			add(out, &k, seg[i].off, seg[i].filesz);
	/* offset order, then one range wherever two are less than a page apart */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j && out[j].off < out[j - 1].off; j--) {
			struct qb_range t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	size_t m = 0;
	for (size_t i = 0; i < k; i++) {
		if (m && out[i].off <= out[m - 1].off + out[m - 1].len + 4096) {
			uint64_t end = out[i].off + out[i].len;
			if (end > out[m - 1].off + out[m - 1].len)
				out[m - 1].len = end - out[m - 1].off;
		} else {
			out[m++] = out[i];
		}
	}
	return m;
}

int qb_closure_valid(const void *rec, size_t size)
{
	struct qb_closure_hdr h;
	if (!rec || ((uintptr_t)rec & 3) || size < sizeof h)
		return 0;
	memcpy(&h, rec, sizeof h);
	if (memcmp(h.magic, QB_CLOSURE_MAGIC, 4))
		return 0;
	uint64_t need = sizeof h + (uint64_t)h.nlibs * sizeof(struct qb_closure_lib) +
		(uint64_t)h.nranges * sizeof(struct qb_closure_range) + h.strsz;
	if (need > size || !h.strsz)
		return 0;
	const struct qb_closure_lib *lib = (const void *)((const char *)rec + sizeof h);
	const char *paths = (const char *)rec + need - h.strsz;
	if (paths[h.strsz - 1])
		return 0;
	for (uint32_t i = 0; i < h.nlibs; i++)
		if (lib[i].path >= h.strsz || lib[i].first > h.nranges || lib[i].n > h.nranges - lib[i].first)
			return 0;
	return 1;
}
