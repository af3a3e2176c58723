#include "tables.h"

#include <stdlib.h>
#include <string.h>

#include "elfhash.h"
#include "qbtable.h"

uint8_t *qbt_build(const struct elf *e, uint32_t flags, size_t *len)
{
	struct qb_table_hdr h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, QB_TABLE_MAGIC, 4);
	h.version = QB_TABLE_VERSION;
	h.hdr_size = sizeof h;
	h.flags = flags | QB_TF_GNUHASH | QB_TF_SYSVHASH;
	h.nsyms = e->nsyms;
	h.gnu_off = sizeof h;
	h.sysv_off = sizeof h + 4 * e->nsyms;
	*len = sizeof h + 8ull * e->nsyms;
	uint8_t *b = calloc(1, *len);
	if (!b)
		return NULL;
	memcpy(b, &h, sizeof h);
	for (uint32_t i = 1; i < e->nsyms; i++) {
		const char *n = elf_sym_name(e, i);
		wr32(b + h.gnu_off + 4 * i, qb_gnu_hash(n));
		wr32(b + h.sysv_off + 4 * i, qb_sysv_hash(n));
	}
	return b;
}

uint8_t *syminfo_build(const struct syminfo *si, uint32_t nsyms, size_t *len)
{
	*len = 4ull * nsyms;
	uint8_t *b = calloc(1, *len ? *len : 1);
	if (!b)
		return NULL;
	for (uint32_t i = 1; i < nsyms; i++) {
		wr16(b + 4 * i, si[i].boundto);
		wr16(b + 4 * i + 2, si[i].flags);
	}
	return b;
}

int rel_grouped(const struct elf *e)
{
	size_t re = elf_relent(e, e->rel_isrela);
	uint32_t n = e->nsyms, prev = 0;
	unsigned char *seen = calloc(n ? n : 1, 1);
	int ok = 1;
	if (!seen)
		return 0;
	for (uint64_t k = 0; k + re <= e->rel_size; k += re) {
		struct rel r;
		elf_rel_get(e, e->rel_off + k, e->rel_isrela, &r);
		if (!r.sym)
			continue;
		if (r.sym != prev && seen[r.sym]) {
			ok = 0;
			break;
		}
		seen[r.sym] = 1;
		prev = r.sym;
	}
	free(seen);
	return ok;
}
