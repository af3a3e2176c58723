/* Which pages of an optimized library's .dynstr start-up reads.
 *
 * The closure record (tables.c) asks for every loadable byte of each
 * library. In a library linkopt optimized, most of those bytes are
 * names: a C++ library's .dynstr is often the largest part of its first
 * segment, and the loader binds its direct references at their hints and
 * its vague ones through their scope definers without reading a name.
 * What start-up still reads of .dynstr is the strings of .dynamic (the
 * needed libraries' names, the soname, run paths), the version names, and
 * the names a lookup by name compares: the library's own references not
 * bound directly or bound to libc (the loader stands for it, with a
 * symbol table of its own), and its definitions of names that any object
 * of the closure references without a direct binding. Everything else is left
 * out of the request; a read there after all (a dlsym, an interposer, a
 * walk a preload stops) faults it in as it would without the record. */
#include "coldnames.h"

#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "libsearch.h"

#define PAGE 4096u
/* a hole smaller than this is not worth a range of its own */
#define MIN_HOLE (4 * PAGE)

/* Symbol i's syminfo entry: from si when given, else from e's own. */
static struct syminfo entry(const struct elf *e, const struct syminfo *si, uint32_t i)
{
	if (si)
		return si[i];
	if (!e->syminfo_off || 4ull * i + 4 > e->syminfo_size)
		return (struct syminfo){ 0, 0 };
	return (struct syminfo){ rd16(e->buf + e->syminfo_off + 4ull * i),
				 rd16(e->buf + e->syminfo_off + 4ull * i + 2) };
}

/* A reference of e the loader binds by its name: not bound directly, or
 * bound to the libc the loader stands for (its symbol table is the
 * loader's own, not the one linkopt saw). */
static int by_name(const struct elf *e, const struct syminfo *si, uint32_t i)
{
	struct syminfo s = entry(e, si, i);
	if (!(s.flags & SYMINFO_FLG_DIRECT))
		return 1;
	if (s.boundto >= e->ndyn || e->dyn[s.boundto].d_tag != DT_NEEDED)
		return 0;
	const char *lib = elf_dynstr(e, e->dyn[s.boundto].d_un.d_val);
	return lib && qb_search_reserved(lib);
}

/* The names the closure's objects look up by name: every reference of
 * an object without direct binding, the others' references bound by
 * name (c->libs[0] by self_si). */
static int referenced_by_name(const struct closure *c, const struct syminfo *self_si, struct strmap *s)
{
	for (unsigned k = 0; k < c->n; k++) {
		const struct elf *e = &c->libs[k].e;
		for (uint32_t i = 1; i < e->nsyms; i++) {
			Elf64_Sym sym;
			elf_sym_get(e, i, &sym);
			if (sym.st_shndx == SHN_UNDEF && sym.st_name && by_name(e, k ? NULL : self_si, i) &&
			    strmap_put(s, elf_sym_name(e, i), 0) < 0)
				return -1;
		}
	}
	return 0;
}

/* Marks the pages of .dynstr holding the string at p (a pointer into e). */
static void mark(const struct elf *e, const char *p, unsigned char *keep)
{
	if (!p || (const uint8_t *)p < e->buf + e->str_off || (const uint8_t *)p >= e->buf + e->str_off + e->str_size)
		return;
	uint64_t lo = (uint64_t)((const uint8_t *)p - e->buf), hi = lo + strnlen(p, e->str_off + e->str_size - lo);
	for (uint64_t pg = lo / PAGE; pg <= hi / PAGE; pg++)
		keep[pg - e->str_off / PAGE] = 1;
}

static void mark_needed(const struct elf *e, const struct strmap *byname, unsigned char *keep)
{
	for (unsigned d = 0; d < e->ndyn; d++) {
		int64_t t = e->dyn[d].d_tag;
		if (t == DT_NEEDED || t == DT_SONAME || t == DT_RPATH || t == DT_RUNPATH)
			mark(e, elf_dynstr(e, e->dyn[d].d_un.d_val), keep);
	}
	for (uint32_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym sym;
		elf_sym_get(e, i, &sym);
		const char *name = elf_sym_name(e, i);
		if (!name || !*name)
			continue;
		int undef = sym.st_shndx == SHN_UNDEF;
		uint32_t unused;
		if ((undef && by_name(e, NULL, i)) || (!undef && strmap_get(byname, name, &unused)))
			mark(e, name, keep);
		uint16_t v = elf_versym(e, i) & 0x7fff;
		if (v >= 2) {
			const char *file = NULL;
			mark(e, undef ? elf_verneed_name(e, v, &file) : elf_verdef_name(e, v), keep);
			mark(e, file, keep);
		}
	}
}

/* Takes [lo, hi) out of the ranges r[0..*n), splitting the one holding it
 * (at most max ranges; 0 when it does not fit). */
static int cut(struct qb_range *r, size_t *n, size_t max, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < *n; i++) {
		uint64_t end = r[i].off + r[i].len;
		if (lo < r[i].off || hi > end)
			continue;
		if (*n == max)
			return 0;
		memmove(r + i + 2, r + i + 1, (*n - i - 1) * sizeof *r);
		r[i + 1] = (struct qb_range){ hi, end - hi };
		r[i].len = lo - r[i].off;
		(*n)++;
		return 1;
	}
	return 0;
}

struct coldnames {
	struct strmap byname;   /* names looked up by name in the closure */
};

struct coldnames *coldnames_new(const struct closure *c, const struct syminfo *self_si)
{
	struct coldnames *cn = calloc(1, sizeof *cn);
	if (cn && referenced_by_name(c, self_si, &cn->byname) < 0) {
		coldnames_free(cn);
		return NULL;
	}
	return cn;
}

void coldnames_free(struct coldnames *cn)
{
	if (cn)
		strmap_free(&cn->byname);
	free(cn);
}

size_t coldnames_cut(const struct coldnames *cn, const struct elf *e, struct qb_range *r, size_t n, size_t max)
{
	if (!cn || !e->qbt_off || !e->syminfo_off || !e->str_size)
		return n;
	uint64_t first = (e->str_off + PAGE - 1) / PAGE, last = (e->str_off + e->str_size) / PAGE;
	if (last <= first)
		return n;
	unsigned char *keep = calloc(e->str_size / PAGE + 2, 1);
	if (!keep)
		return n;
	mark_needed(e, &cn->byname, keep);
	/* whole pages of .dynstr only: its first and last may hold other data */
	for (uint64_t pg = first; pg < last;) {
		if (keep[pg - e->str_off / PAGE]) {
			pg++;
			continue;
		}
		uint64_t end = pg;
		while (end < last && !keep[end - e->str_off / PAGE])
			end++;
		if ((end - pg) * PAGE >= MIN_HOLE)
			cut(r, &n, max, pg * PAGE, end * PAGE);
		pg = end;
	}
	free(keep);
	return n;
}
