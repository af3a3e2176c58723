#include "qbtable.h"

#include <string.h>

/* An offset is usable when the whole array fits inside the table and does
 * not overlap the header; all arithmetic in 64 bits so nothing wraps. */
static int array_ok(uint32_t off, uint32_t nsyms, size_t size, uint16_t hdr)
{
	uint64_t end = (uint64_t)off + 4u * (uint64_t)nsyms;
	return off >= hdr && (off & 3) == 0 && end <= size;
}

/* Every object's answers inside the table, clear of the header. */
static int launch_ok(const void *tab, const struct qb_table_hdr *h, size_t size)
{
	if (h->hdr_size < QB_TABLE_HDR7_SIZE || h->nlaunch > 0xffff ||
	    !array_ok(h->launch_off, 4 * h->nlaunch, size, h->hdr_size) ||
	    !h->nnames || (h->nnames & (h->nnames - 1)) || h->nnames > (1u << 26) ||
	    !array_ok(h->names_off, h->nnames, size, h->hdr_size))
		return 0;
	const struct qb_launch_obj *o = (const struct qb_launch_obj *)((const char *)tab + h->launch_off);
	for (uint32_t k = 0; k < h->nlaunch; k++)
		if (o[k].count > 0x7fffffff || !array_ok(o[k].ans_off, 2 * o[k].count, size, h->hdr_size))
			return 0;
	return 1;
}

int qb_table_valid(const void *tab, size_t size, uint32_t nsyms_expected)
{
	struct qb_table_hdr h;

	if (!tab || size < QB_TABLE_HDR1_SIZE || ((uintptr_t)tab & 3))
		return 0;
	memset(&h, 0, sizeof h);
	memcpy(&h, tab, size < sizeof h ? size : sizeof h);
	if (memcmp(h.magic, QB_TABLE_MAGIC, 4) || h.version != QB_TABLE_VERSION)
		return 0;
	if (h.hdr_size < QB_TABLE_HDR1_SIZE || h.hdr_size > size || h.nsyms != nsyms_expected)
		return 0;
	if ((h.flags & (QB_TF_HINTS | QB_TF_SELFID)) && h.hdr_size < QB_TABLE_HDR2_SIZE)
		return 0;
	if ((h.flags & QB_TF_HINTS) && (!array_ok(h.hint_off, h.nsyms, size, h.hdr_size) ||
	    h.nneeded > 0xffff || !array_ok(h.needed_off, 4 * h.nneeded, size, h.hdr_size)))
		return 0;
	if ((h.flags & QB_TF_VALUES) && (h.hdr_size < QB_TABLE_HDR3_SIZE || !(h.flags & QB_TF_HINTS) ||
	    !array_ok(h.value_off, h.nsyms, size, h.hdr_size)))
		return 0;
	if ((h.flags & QB_TF_SCOPE) && (h.hdr_size < QB_TABLE_HDR4_SIZE ||
	    (~h.flags & (QB_TF_HINTS | QB_TF_GNUHASH)) || !array_ok(h.definer_off, h.nsyms, size, h.hdr_size)))
		return 0;
	if ((h.flags & QB_TF_LAUNCH) && !launch_ok(tab, &h, size))
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

const uint32_t *qb_table_hints(const void *tab)
{
	const struct qb_table_hdr *h = tab;
	if (!(h->flags & QB_TF_HINTS))
		return NULL;
	return (const uint32_t *)((const char *)tab + h->hint_off);
}

const uint32_t *qb_table_values(const void *tab)
{
	const struct qb_table_hdr *h = tab;
	if (!(h->flags & QB_TF_VALUES))
		return NULL;
	return (const uint32_t *)((const char *)tab + h->value_off);
}

int qb_table_std_relocs(const void *tab, uint32_t *n)
{
	const struct qb_table_hdr *h = tab;
	if (h->hdr_size < QB_TABLE_HDR4_SIZE)
		return 0;
	*n = h->std_relocs;
	return 1;
}

int qb_table_scoped_relocs(const void *tab, uint32_t *n)
{
	const struct qb_table_hdr *h = tab;
	if (h->hdr_size < QB_TABLE_HDR4_SIZE || (~h->flags & (QB_TF_SCOPECOUNT | QB_TF_SCOPE)))
		return 0;
	*n = h->scoped_relocs;
	return 1;
}

const uint32_t *qb_table_definers(const void *tab)
{
	const struct qb_table_hdr *h = tab;
	if (!(h->flags & QB_TF_SCOPE))
		return NULL;
	return (const uint32_t *)((const char *)tab + h->definer_off);
}

const struct qb_needed_id *qb_table_needed(const void *tab, uint32_t *n)
{
	const struct qb_table_hdr *h = tab;
	*n = 0;
	if (!(h->flags & QB_TF_HINTS))
		return NULL;
	*n = h->nneeded;
	return (const struct qb_needed_id *)((const char *)tab + h->needed_off);
}

uint64_t qb_table_self_id(const void *tab)
{
	const struct qb_table_hdr *h = tab;
	if (!(h->flags & QB_TF_SELFID))
		return 0;
	return (uint64_t)h->self_id[1] << 32 | h->self_id[0];
}

uint64_t qb_table_table_id(const void *tab)
{
	const struct qb_table_hdr *h = tab;
	if (h->hdr_size < QB_TABLE_HDR5_SIZE)
		return 0;
	return (uint64_t)h->table_id[1] << 32 | h->table_id[0];
}

const struct qb_launch_obj *qb_table_launch(const void *tab, uint32_t *n, const uint32_t **names,
	uint32_t *nwords)
{
	const struct qb_table_hdr *h = tab;
	*n = *nwords = 0;
	*names = NULL;
	if (!(h->flags & QB_TF_LAUNCH))
		return NULL;
	*n = h->nlaunch;
	*nwords = h->nnames;
	*names = (const uint32_t *)((const char *)tab + h->names_off);
	return (const struct qb_launch_obj *)((const char *)tab + h->launch_off);
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t qb_symtab_id(const void *dynsym, size_t dynsym_size,
	const void *dynstr, size_t dynstr_size, const void *versym, size_t versym_size)
{
	uint64_t h = 0xcbf29ce484222325ull;
	h = fnv1a(h, dynsym, dynsym_size);
	h = fnv1a(h, dynstr, dynstr_size);
	if (versym)
		h = fnv1a(h, versym, versym_size);
	return h ? h : 1;  /* 0 means "no identity" */
}

uint64_t qb_build_id(const void *desc, size_t size)
{
	uint64_t h = fnv1a(0xcbf29ce484222325ull, desc, size);
	return h ? h : 1;
}

uint64_t qb_table_compute_id(const void *tab, size_t size)
{
	const size_t at = offsetof(struct qb_table_hdr, table_id);
	const unsigned char zero[8] = { 0 };
	uint64_t h = 0xcbf29ce484222325ull;
	if (size < at + sizeof zero) {
		h = fnv1a(h, tab, size);
	} else {
		h = fnv1a(h, tab, at);
		h = fnv1a(h, zero, sizeof zero);
		h = fnv1a(h, (const char *)tab + at + sizeof zero, size - at - sizeof zero);
	}
	return h ? h : 1;
}
