#include "qbtable.h"

#include <string.h>

/* An offset is usable when the whole array fits inside the table and does
 * not overlap the header; all arithmetic in 64 bits so nothing wraps. */
static int array_ok(uint32_t off, uint32_t nsyms, size_t size, uint16_t hdr)
{
	uint64_t end = (uint64_t)off + 4u * (uint64_t)nsyms;
	return off >= hdr && (off & 3) == 0 && end <= size;
}

int qb_table_valid(const void *tab, size_t size, uint32_t nsyms_expected)
{
	struct qb_table_hdr h;

	if (!tab || size < sizeof h || ((uintptr_t)tab & 3))
		return 0;
	memcpy(&h, tab, sizeof h);
	if (memcmp(h.magic, QB_TABLE_MAGIC, 4) || h.version != QB_TABLE_VERSION)
		return 0;
	if (h.hdr_size < sizeof h || h.hdr_size > size || h.nsyms != nsyms_expected)
		return 0;
	if ((h.flags & QB_TF_GNUHASH) && !array_ok(h.gnu_off, h.nsyms, size, h.hdr_size))
		return 0;
	if ((h.flags & QB_TF_SYSVHASH) && !array_ok(h.sysv_off, h.nsyms, size, h.hdr_size))
		return 0;
	return 1;
}

const uint32_t *qb_table_gnu(const void *tab)
{
	const struct qb_table_hdr *h = tab;
	if (!(h->flags & QB_TF_GNUHASH))
		return NULL;
	return (const uint32_t *)((const char *)tab + h->gnu_off);
}

const uint32_t *qb_table_sysv(const void *tab)
{
	const struct qb_table_hdr *h = tab;
	if (!(h->flags & QB_TF_SYSVHASH))
		return NULL;
	return (const uint32_t *)((const char *)tab + h->sysv_off);
}
