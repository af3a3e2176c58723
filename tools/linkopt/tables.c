#include "tables.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "elfhash.h"
#include "qbtable.h"

uint8_t *qbt_build(const struct elf *e, uint32_t flags, size_t *len)
{
	return qbt_build_hints(e, flags | QB_TF_SYSVHASH, NULL, NULL, NULL, NULL, 0, len);
}

uint8_t *qbt_build_hints(const struct elf *e, uint32_t flags, const uint32_t *hints,
	const uint32_t *values, const uint32_t *definers, const struct needed_id *needed, uint32_t nneeded,
	size_t *len)
{
	struct qb_table_hdr h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, QB_TABLE_MAGIC, 4);
	h.version = QB_TABLE_VERSION;
	h.hdr_size = sizeof h;
	int sysv = !!(flags & QB_TF_SYSVHASH);
	h.flags = flags | QB_TF_GNUHASH;
	h.nsyms = e->nsyms;
	h.gnu_off = sizeof h;
	h.sysv_off = sysv ? sizeof h + 4 * e->nsyms : 0;
	*len = sizeof h + (sysv ? 8ull : 4ull) * e->nsyms;
	if (hints) {
		h.flags |= QB_TF_HINTS | QB_TF_SELFID;
		h.hint_off = *len;
		h.needed_off = *len + 4ull * e->nsyms;
		h.nneeded = nneeded;
		*len += 4ull * e->nsyms + sizeof(struct qb_needed_id) * nneeded;
		if (values) {
			h.flags |= QB_TF_VALUES;
			h.value_off = *len;
			*len += 4ull * e->nsyms;
		}
		if (definers) {
			h.flags |= QB_TF_SCOPE;
			h.definer_off = *len;
			*len += 4ull * e->nsyms;
		}
	}
	/* self_id is filled in once the file's final bytes are known */
	h.self_id[0] = 1;
	uint8_t *b = calloc(1, *len);
	if (!b)
		return NULL;
	memcpy(b, &h, sizeof h);
	for (uint32_t i = 1; i < e->nsyms; i++) {
		const char *n = elf_sym_name(e, i);
		wr32(b + h.gnu_off + 4 * i, qb_gnu_hash(n));
		if (sysv)
			wr32(b + h.sysv_off + 4 * i, qb_sysv_hash(n));
		if (hints)
			wr32(b + h.hint_off + 4 * i, hints[i]);
		if (hints && values)
			wr32(b + h.value_off + 4 * i, values[i]);
		if (hints && definers)
			wr32(b + h.definer_off + 4 * i, definers[i]);
	}
	for (uint32_t k = 0; k < nneeded; k++) {
		uint8_t *p = b + h.needed_off + sizeof(struct qb_needed_id) * k;
		wr32(p, needed[k].dynidx);
		wr32(p + 8, (uint32_t)needed[k].id);
		wr32(p + 12, (uint32_t)(needed[k].id >> 32));
	}
	return b;
}

uint64_t elf_symtab_id(const struct elf *e)
{
	size_t symsz = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	return qb_symtab_id(e->buf + e->sym_off, (size_t)e->nsyms * symsz,
		e->buf + e->str_off, e->str_size,
		e->versym_off ? e->buf + e->versym_off : NULL, 2ull * e->nsyms);
}

int qbt_set_self_id(struct elf *e)
{
	if (!e->qbt_off || e->qbt_size < QB_TABLE_HDR2_SIZE)
		return -1;
	uint64_t id = elf_symtab_id(e);
	uint8_t *h = e->buf + e->qbt_off;
	wr32(h + offsetof(struct qb_table_hdr, self_id), (uint32_t)id);
	wr32(h + offsetof(struct qb_table_hdr, self_id) + 4, (uint32_t)(id >> 32));
	return 0;
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
