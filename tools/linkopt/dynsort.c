/* The new .dynsym order and the hash tables for it (dynsort.h): symbols
 * grouped by hash bucket so a chain walk reads adjacent entries, every
 * symbol index (.gnu.version, the relocations) renumbered, and .hash and
 * .gnu.hash built for that order. */
#include "dynsort.h"

#include <stdlib.h>
#include <string.h>

#include "elfhash.h"

struct key {
	uint32_t cls, bucket, old;
};

static int by_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return x->old < y->old ? -1 : x->old > y->old;
}

uint32_t *dynsort_order(const struct elf *e, int gnu, uint32_t nbuckets, uint32_t *symoffset)
{
	uint32_t n = e->nsyms;
	struct key *k = malloc((n ? n : 1) * sizeof *k);
	uint32_t *order = malloc((n ? n : 1) * sizeof *order);
	if (!k || !order || !nbuckets) {
		free(k);
		free(order);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		Elf64_Sym s;
		elf_sym_get(e, i, &s);
		const char *name = elf_sym_name(e, i);
		k[i].old = i;
		if (i == 0 || ELF64_ST_BIND(s.st_info) == STB_LOCAL) {
			k[i].cls = 0;
			k[i].bucket = 0;
		} else if (gnu && s.st_shndx == SHN_UNDEF) {
			k[i].cls = 1;
			k[i].bucket = 0;
		} else {
			k[i].cls = 2;
			k[i].bucket = (gnu ? qb_gnu_hash(name) : qb_sysv_hash(name)) % nbuckets;
		}
	}
	qsort(k, n, sizeof *k, by_key);
	*symoffset = n;
	for (uint32_t i = 0; i < n; i++) {
		order[i] = k[i].old;
		if (k[i].cls == 2 && *symoffset == n)
			*symoffset = i;
	}
	if (!gnu) {
		*symoffset = n;
		for (uint32_t i = 0; i < n; i++)
			if (k[i].cls != 0) {
				*symoffset = i;
				break;
			}
	}
	free(k);
	return order;
}

int dynsort_apply(struct elf *e, const uint32_t *order)
{
	uint32_t n = e->nsyms;
	size_t se = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	uint8_t *syms = malloc(n * se + 1);
	uint16_t *vs = malloc(2 * (size_t)n + 2);
	uint32_t *newidx = malloc(4 * (size_t)n + 4);
	if (!syms || !vs || !newidx) {
		free(syms);
		free(vs);
		free(newidx);
		return -1;
	}
	memcpy(syms, e->buf + e->sym_off, n * se);
	if (e->versym_off)
		memcpy(vs, e->buf + e->versym_off, 2 * (size_t)n);
	for (uint32_t k = 0; k < n; k++) {
		newidx[order[k]] = k;
		memcpy(e->buf + e->sym_off + (uint64_t)k * se, syms + (uint64_t)order[k] * se, se);
		if (e->versym_off)
			wr16(e->buf + e->versym_off + 2ull * k, vs[order[k]]);
	}
	for (int t = 0; t < 2; t++) {
		uint64_t o = t ? e->plt_off : e->rel_off, sz = t ? e->plt_size : e->rel_size;
		int ra = t ? e->plt_isrela : e->rel_isrela;
		size_t re = elf_relent(e, ra);
		for (uint64_t k = 0; o && k + re <= sz; k += re) {
			struct rel r;
			elf_rel_get(e, o + k, ra, &r);
			if (r.sym) {
				r.sym = newidx[r.sym];
				elf_rel_put(e, o + k, ra, &r);
			}
		}
	}
	free(syms);
	free(vs);
	free(newidx);
	return 0;
}

uint8_t *sysv_hash_build(const struct elf *e, uint32_t nb, size_t *len)
{
	uint32_t n = e->nsyms;
	*len = 8 + 4ull * nb + 4ull * n;
	uint8_t *b = calloc(1, *len);
	if (!b || !nb) {
		free(b);
		return NULL;
	}
	wr32(b, nb);
	wr32(b + 4, n);
	uint8_t *bucket = b + 8, *chain = b + 8 + 4ull * nb;
	/* insert in reverse so each chain runs in ascending index order */
	for (uint32_t i = n; i-- > 1;) {
		uint32_t h = qb_sysv_hash(elf_sym_name(e, i)) % nb;
		wr32(chain + 4ull * i, rd32(bucket + 4ull * h));
		wr32(bucket + 4ull * h, i);
	}
	return b;
}

uint8_t *gnu_hash_build(const struct elf *e, const struct gnu_params *p, size_t *len)
{
	uint32_t n = e->nsyms, ws = e->is64 ? 8 : 4, wbits = ws * 8;
	if (!p->nbuckets || !p->maskwords || p->symoffset > n)
		return NULL;
	*len = 16 + (uint64_t)p->maskwords * ws + 4ull * p->nbuckets + 4ull * (n - p->symoffset);
	uint8_t *b = calloc(1, *len);
	if (!b)
		return NULL;
	wr32(b, p->nbuckets);
	wr32(b + 4, p->symoffset);
	wr32(b + 8, p->maskwords);
	wr32(b + 12, p->shift);
	uint8_t *bloom = b + 16, *buckets = bloom + (uint64_t)p->maskwords * ws;
	uint8_t *chain = buckets + 4ull * p->nbuckets;
	for (uint32_t i = p->symoffset; i < n; i++) {
		uint32_t h = qb_gnu_hash(elf_sym_name(e, i));
		uint32_t w = (h / wbits) & (p->maskwords - 1);
		uint64_t bits = (1ull << (h % wbits)) | (1ull << ((h >> p->shift) % wbits));
		if (ws == 8)
			wr64(bloom + 8ull * w, rd64(bloom + 8ull * w) | bits);
		else
			wr32(bloom + 4ull * w, rd32(bloom + 4ull * w) | (uint32_t)bits);
		uint32_t bk = h % p->nbuckets;
		if (!rd32(buckets + 4ull * bk))
			wr32(buckets + 4ull * bk, i);
		/* the last symbol of a bucket carries bit 0 */
		int last = i + 1 == n || qb_gnu_hash(elf_sym_name(e, i + 1)) % p->nbuckets != bk;
		wr32(chain + 4ull * (i - p->symoffset), (h & ~1u) | (last ? 1 : 0));
	}
	return b;
}

uint32_t prime_at_least(uint32_t n)
{
	if (n < 2)
		return 1;
	for (;; n++) {
		int prime = 1;
		for (uint32_t d = 2; (uint64_t)d * d <= n; d++)
			if (n % d == 0) {
				prime = 0;
				break;
			}
		if (prime)
			return n;
	}
}

struct gnu_params gnu_params_o1(const struct elf *e, uint32_t symoffset)
{
	uint32_t nh = e->nsyms - symoffset, wbits = e->is64 ? 64 : 32;
	struct gnu_params p = { prime_at_least(nh ? nh : 1), symoffset, 1, e->is64 ? 6 : 5 };
	uint64_t words = (8ull * nh + wbits - 1) / wbits;
	while (p.maskwords < words)
		p.maskwords <<= 1;
	return p;
}

uint64_t sysv_hash_size(const struct elf *e)
{
	return e->hash_off ? e->hash_size : 0;
}
