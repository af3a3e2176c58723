/* Rewriting .dynstr in .dynsym order (dynstr.h): the new string table and
 * every offset into it (symbol names, dynamic entries, version needs and
 * definitions) mapped to it. */
#include "dynstr.h"

#include <stdlib.h>
#include <string.h>

#include "elfhash.h"

struct strtab {
	uint8_t *buf;
	size_t len, cap;
	uint32_t *slot; /* open addressing: offset+1 of each distinct string */
	size_t mask;
};

static int st_init(struct strtab *t, size_t cap, size_t nstr)
{
	t->cap = cap + 1;
	t->buf = calloc(1, t->cap);
	size_t n = 64;
	while (n < 2 * nstr + 2)
		n <<= 1;
	t->slot = calloc(n, sizeof *t->slot);
	t->mask = n - 1;
	t->len = 1; /* offset 0 is the empty string */
	return t->buf && t->slot ? 0 : -1;
}

static long st_add(struct strtab *t, const char *s)
{
	if (!*s)
		return 0;
	size_t l = strlen(s);
	size_t j = qb_gnu_hash(s) & t->mask;
	while (t->slot[j]) {
		if (!strcmp((char *)t->buf + t->slot[j] - 1, s))
			return t->slot[j] - 1;
		j = (j + 1) & t->mask;
	}
	if (t->len + l + 1 > t->cap)
		return -1;
	memcpy(t->buf + t->len, s, l + 1);
	t->slot[j] = (uint32_t)t->len + 1;
	t->len += l + 1;
	return (long)(t->len - l - 1);
}

static int is_str_tag(int64_t t)
{
	return t == DT_NEEDED || t == DT_SONAME || t == DT_RPATH || t == DT_RUNPATH || t == DT_AUXILIARY ||
	       t == DT_FILTER || t == DT_CONFIG || t == DT_DEPAUDIT || t == DT_AUDIT;
}

/* Visits every version-section string reference: fn gets its file offset. */
static int ver_refs(struct elf *e, struct strtab *t, int write)
{
	uint64_t off = e->verneed_off;
	for (unsigned n = 0; off && n < e->verneednum; n++) {
		if (!in_file(e->size, off, 16))
			return -1;
		uint8_t *vn = e->buf + off;
		long v = st_add(t, elf_dynstr(e, rd32(vn + 4)) ? elf_dynstr(e, rd32(vn + 4)) : "");
		if (v < 0 || !elf_dynstr(e, rd32(vn + 4)))
			return -1;
		uint64_t a = off + rd32(vn + 8);
		for (unsigned k = 0; k < rd16(vn + 2); k++) {
			if (!in_file(e->size, a, 16) || !elf_dynstr(e, rd32(e->buf + a + 8)))
				return -1;
			long w = st_add(t, elf_dynstr(e, rd32(e->buf + a + 8)));
			if (w < 0)
				return -1;
			if (write)
				wr32(e->buf + a + 8, (uint32_t)w);
			if (!rd32(e->buf + a + 12))
				break;
			a += rd32(e->buf + a + 12);
		}
		if (write)
			wr32(vn + 4, (uint32_t)v);
		if (!rd32(vn + 12))
			break;
		off += rd32(vn + 12);
	}
	off = e->verdef_off;
	for (unsigned n = 0; off && n < e->verdefnum; n++) {
		if (!in_file(e->size, off, 20))
			return -1;
		uint8_t *vd = e->buf + off;
		uint64_t a = off + rd32(vd + 12);
		for (unsigned k = 0; k < rd16(vd + 6); k++) {
			if (!in_file(e->size, a, 8) || !elf_dynstr(e, rd32(e->buf + a)))
				return -1;
			long w = st_add(t, elf_dynstr(e, rd32(e->buf + a)));
			if (w < 0)
				return -1;
			if (write)
				wr32(e->buf + a, (uint32_t)w);
			if (!rd32(e->buf + a + 4))
				break;
			a += rd32(e->buf + a + 4);
		}
		if (!rd32(vd + 16))
			break;
		off += rd32(vd + 16);
	}
	return 0;
}

int dynstr_sort(struct elf *e, int allow_grow, uint8_t **out, size_t *len)
{
	/* every string is at most as long as .dynstr; names are added in
	 * symbol order, then those of .dynamic and the version sections */
	struct strtab t;
	size_t cap = e->str_size + 16 * (size_t)e->nsyms + 4096;
	if (st_init(&t, cap, e->nsyms + e->ndyn + 1024) < 0) {
		free(t.buf);
		free(t.slot);
		return -1;
	}
	uint32_t *names = malloc(4 * (size_t)e->nsyms + 4);
	int rc = -1;
	if (!names)
		goto out;
	for (uint32_t i = 0; i < e->nsyms; i++) {
		long v = st_add(&t, elf_sym_name(e, i));
		if (v < 0)
			goto out;
		names[i] = (uint32_t)v;
	}
	for (unsigned k = 0; k < e->ndyn; k++)
		if (is_str_tag(e->dyn[k].d_tag)) {
			const char *s = elf_dynstr(e, e->dyn[k].d_un.d_val);
			if (!s || st_add(&t, s) < 0)
				goto out;
		}
	/* first pass only collects: nothing is written unless all maps */
	if (ver_refs(e, &t, 0) < 0)
		goto out;
	if (t.len > e->str_size && !allow_grow) {
		rc = 1;
		goto out;
	}
	if (ver_refs(e, &t, 1) < 0)
		goto out;
	for (unsigned k = 0; k < e->ndyn; k++)
		if (is_str_tag(e->dyn[k].d_tag))
			e->dyn[k].d_un.d_val = (uint64_t)st_add(&t, elf_dynstr(e, e->dyn[k].d_un.d_val));
	for (uint32_t i = 0; i < e->nsyms; i++) {
		Elf64_Sym s;
		elf_sym_get(e, i, &s);
		s.st_name = names[i];
		elf_sym_put(e, i, &s);
	}
	/* a shorter table keeps the old size (zero padding), so a table
	 * that already is in order maps onto itself */
	*len = t.len > e->str_size ? t.len : e->str_size;
	*out = calloc(1, *len);
	if (!*out)
		goto out;
	memcpy(*out, t.buf, t.len);
	rc = 0;
out:
	free(names);
	free(t.buf);
	free(t.slot);
	return rc;
}
