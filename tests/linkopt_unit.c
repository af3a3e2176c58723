/* linkopt unit tests: hash functions against real hash sections, the QB
 * table builder and validator, relocation grouping, and the ELF reader
 * against truncated and corrupted images (it must fail cleanly, never
 * crash or read out of bounds). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elffile.h"
#include "elfhash.h"
#include "index.h"
#include "qbtable.h"
#include "relsort.h"
#include "tables.h"

static const char *real_libs[] = {
	"/lib/x86_64-linux-gnu/libc.so.6",
	"/usr/lib/x86_64-linux-musl/libc.so",
	"/usr/i686-linux-gnu/lib/libc.so.6",
};

Test(hash, published_values)
{
	/* values from the GNU hash / gABI literature, not from this code */
	cr_assert_eq(qb_gnu_hash(""), 0x00001505u);
	cr_assert_eq(qb_gnu_hash("printf"), 0x156b2bb8u);
	cr_assert_eq(qb_gnu_hash("exit"), 0x7c967e3fu);
	cr_assert_eq(qb_sysv_hash(""), 0u);
	cr_assert_eq(qb_sysv_hash("printf"), 0x077905a6u);
	cr_assert_eq(qb_sysv_hash("exit"), 0x0006cf04u);
}

/* Every symbol that a real linker put in .gnu.hash must sit in the bucket
 * of its hash and carry the hash (minus bit 0) in its chain word; every
 * symbol must be reachable from its .hash bucket. */
Test(hash, agrees_with_real_hash_sections)
{
	for (unsigned k = 0; k < sizeof real_libs / sizeof *real_libs; k++) {
		struct elf e;
		cr_assert_eq(elf_load_file(&e, real_libs[k]), 0, "%s: %s", real_libs[k], e.err);
		cr_assert(e.gnuhash_off || e.hash_off);
		unsigned checked = 0;
		if (e.gnuhash_off) {
			const uint8_t *g = e.buf + e.gnuhash_off;
			uint32_t nb = rd32(g), symoff = rd32(g + 4), nbloom = rd32(g + 8);
			const uint8_t *buckets = g + 16 + nbloom * (e.is64 ? 8 : 4);
			const uint8_t *chain = buckets + 4 * nb;
			for (uint32_t i = symoff; i < e.nsyms; i++) {
				uint32_t h = qb_gnu_hash(elf_sym_name(&e, i));
				cr_assert_eq(rd32(chain + 4 * (i - symoff)) | 1, h | 1, "%s sym %u", real_libs[k], i);
				uint32_t first = rd32(buckets + 4 * (h % nb));
				cr_assert(first && first <= i);
				checked++;
			}
		}
		if (e.hash_off) {
			const uint8_t *h = e.buf + e.hash_off;
			uint32_t nb = rd32(h);
			for (uint32_t i = 1; i < e.nsyms; i++) {
				uint32_t y = rd32(h + 8 + 4 * (qb_sysv_hash(elf_sym_name(&e, i)) % nb));
				unsigned steps = 0;
				while (y && y != i && steps++ < e.nsyms)
					y = rd32(h + 8 + 4 * nb + 4 * y);
				cr_assert_eq(y, i, "%s: symbol %u not in its .hash chain", real_libs[k], i);
				checked++;
			}
		}
		cr_assert_gt(checked, 100);
		elf_free(&e);
	}
}

Test(qbtable, build_and_validate)
{
	struct elf e;
	cr_assert_eq(elf_load_file(&e, real_libs[1]), 0, "%s", e.err);
	size_t len;
	uint8_t *t = qbt_build(&e, QB_TF_DIRECT, &len);
	cr_assert_eq(len, sizeof(struct qb_table_hdr) + 8ull * e.nsyms);
	cr_assert(qb_table_valid(t, len, e.nsyms));
	cr_assert(!qb_table_valid(t, len, e.nsyms + 1), "symbol count mismatch accepted");
	cr_assert(!qb_table_valid(t, len - 1, e.nsyms), "truncated table accepted");
	cr_assert(!qb_table_valid(t, 10, e.nsyms));
	const uint32_t *g = qb_table_gnu(t), *s = qb_table_sysv(t);
	cr_assert_eq(g[0], 0u);
	for (uint32_t i = 1; i < e.nsyms; i++) {
		cr_assert_eq(g[i], qb_gnu_hash(elf_sym_name(&e, i)));
		cr_assert_eq(s[i], qb_sysv_hash(elf_sym_name(&e, i)));
	}
	struct qb_table_hdr h;
	memcpy(&h, t, sizeof h);
	cr_assert_eq(h.flags, QB_TF_DIRECT | QB_TF_GNUHASH | QB_TF_SYSVHASH);
	t[0] = 'X';
	cr_assert(!qb_table_valid(t, len, e.nsyms), "bad magic accepted");
	t[0] = 'Q';
	wr16(t + 4, 2);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "unknown version accepted");
	wr16(t + 4, 1);
	wr32(t + 16, (uint32_t)len); /* gnu_off past the end */
	cr_assert(!qb_table_valid(t, len, e.nsyms), "array outside the table accepted");
	wr32(t + 16, 2); /* inside the header */
	cr_assert(!qb_table_valid(t, len, e.nsyms), "array overlapping the header accepted");
	free(t);
	elf_free(&e);
}

/* Values (QB_TF_VALUES) come with hints, in a header that has room for
 * value_off, and inside the table; otherwise the table is refused. */
Test(qbtable, values_validated)
{
	struct elf e;
	cr_assert_eq(elf_load_file(&e, real_libs[1]), 0, "%s", e.err);
	uint32_t *hints = calloc(e.nsyms, 4), *values = calloc(e.nsyms, 4);
	cr_assert(hints && values);
	for (uint32_t i = 1; i < e.nsyms; i++)
		values[i] = hints[i] = i;
	size_t len;
	uint8_t *t = qbt_build_hints(&e, QB_TF_DIRECT, hints, values, NULL, NULL, 0, &len);
	cr_assert(qb_table_valid(t, len, e.nsyms));
	struct qb_table_hdr h;
	memcpy(&h, t, sizeof h);
	cr_assert(h.flags & QB_TF_VALUES);
	cr_assert_eq(h.hdr_size, QB_TABLE_HDR7_SIZE);
	const uint32_t *got = qb_table_values(t);
	for (uint32_t i = 1; i < e.nsyms; i++)
		cr_assert_eq(got[i], i);
	size_t voff = offsetof(struct qb_table_hdr, value_off);
	wr32(t + voff, (uint32_t)len - 4); /* runs past the end */
	cr_assert(!qb_table_valid(t, len, e.nsyms), "values outside the table accepted");
	wr32(t + voff, h.value_off);
	wr32(t + 8, h.flags & ~QB_TF_HINTS);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "values without hints accepted");
	wr32(t + 8, h.flags);
	wr16(t + 6, QB_TABLE_HDR2_SIZE);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "values in a header without value_off accepted");
	wr16(t + 6, QB_TABLE_HDR3_SIZE);
	cr_assert(qb_table_valid(t, len, e.nsyms));
	free(t);
	free(hints);
	free(values);
	elf_free(&e);
}

/* Scope definers (QB_TF_SCOPE) come with hints and GNU hash values, in a
 * header that has room for definer_off, and inside the table; otherwise
 * the table is refused. */
Test(qbtable, definers_validated)
{
	struct elf e;
	cr_assert_eq(elf_load_file(&e, real_libs[1]), 0, "%s", e.err);
	uint32_t *hints = calloc(e.nsyms, 4), *values = calloc(e.nsyms, 4), *def = calloc(e.nsyms, 4);
	cr_assert(hints && values && def);
	for (uint32_t i = 1; i < e.nsyms; i++)
		hints[i] = def[i] = i;
	struct needed_id nd = { QB_NEEDED_SCOPE, 0 };
	size_t len;
	uint8_t *t = qbt_build_hints(&e, QB_TF_DIRECT, hints, values, def, &nd, 1, &len);
	cr_assert(qb_table_valid(t, len, e.nsyms));
	struct qb_table_hdr h;
	memcpy(&h, t, sizeof h);
	cr_assert(h.flags & QB_TF_SCOPE);
	const uint32_t *got = qb_table_definers(t);
	cr_assert_not_null(got);
	for (uint32_t i = 1; i < e.nsyms; i++)
		cr_assert_eq(got[i], i);
	uint32_t nn;
	const struct qb_needed_id *n = qb_table_needed(t, &nn);
	cr_assert_eq(nn, 1);
	cr_assert_eq(n[0].dynidx, QB_NEEDED_SCOPE);
	size_t doff = offsetof(struct qb_table_hdr, definer_off);
	wr32(t + doff, (uint32_t)len - 4); /* runs past the end */
	cr_assert(!qb_table_valid(t, len, e.nsyms), "definers outside the table accepted");
	wr32(t + doff, 2); /* unaligned, inside the header */
	cr_assert(!qb_table_valid(t, len, e.nsyms), "definers overlapping the header accepted");
	wr32(t + doff, h.definer_off);
	wr32(t + 8, h.flags & ~QB_TF_HINTS);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "definers without hints accepted");
	wr32(t + 8, h.flags & ~QB_TF_GNUHASH);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "definers without GNU hash values accepted");
	wr32(t + 8, h.flags);
	wr16(t + 6, QB_TABLE_HDR3_SIZE);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "definers in a header without definer_off accepted");
	wr16(t + 6, QB_TABLE_HDR4_SIZE);
	cr_assert(qb_table_valid(t, len, e.nsyms));
	wr32(t + 8, h.flags & ~QB_TF_SCOPE);
	cr_assert_null(qb_table_definers(t), "definers without the flag");
	free(t);
	free(hints);
	free(values);
	free(def);
	elf_free(&e);
}

/* A table of real_libs[1] (e) with a launch record of two objects, the
 * first answering 3 symbols and the second none, and a names filter of
 * one word; *hints: its hints. */
static uint8_t *table_with_record(struct elf *e, uint32_t **hints, size_t *len)
{
	cr_assert_eq(elf_load_file(e, real_libs[1]), 0, "%s", e->err);
	*hints = calloc(e->nsyms, 4);
	cr_assert(*hints);
	uint8_t *t = qbt_build_hints(e, QB_TF_DIRECT, *hints, NULL, NULL, NULL, 0, len);
	cr_assert(t && *len % 4 == 0);
	size_t at = *len, ans = at + 2 * sizeof(struct qb_launch_obj), names = ans + 3 * 8;
	t = realloc(t, names + 4);
	cr_assert(t);
	const uint32_t rec[] = { 0, 0, 3, (uint32_t)ans, 1, 2, 0, (uint32_t)ans,
				 2, 16, QB_LAUNCH_ASK, 0, QB_LAUNCH_NONE, 0, 0x5 };
	for (size_t i = 0; i < sizeof rec / 4; i++)
		wr32(t + at + 4 * i, rec[i]);
	wr32(t + offsetof(struct qb_table_hdr, launch_off), (uint32_t)at);
	wr32(t + offsetof(struct qb_table_hdr, nlaunch), 2);
	wr32(t + offsetof(struct qb_table_hdr, names_off), (uint32_t)names);
	wr32(t + offsetof(struct qb_table_hdr, nnames), 1);
	wr32(t + 8, rd32(t + 8) | QB_TF_LAUNCH);
	*len = names + 4;
	return t;
}

/* A program's launch record (QB_TF_LAUNCH) lies inside the table, every
 * object's answers and the names' filter too, in a header with room for
 * it; the table's identity leaves out its own field and changes with any
 * other byte. */
Test(qbtable, launch_record_validated)
{
	struct elf e;
	uint32_t *hints;
	size_t len;
	uint8_t *t = table_with_record(&e, &hints, &len);
	cr_assert(qb_table_valid(t, len, e.nsyms));
	uint32_t n, nw;
	const uint32_t *names;
	const struct qb_launch_obj *got = qb_table_launch(t, &n, &names, &nw);
	cr_assert(got && n == 2 && got[0].count == 3 && got[1].id[0] == 1 && got[1].id[1] == 2 && nw == 1 &&
		  names[0] == 0x5);
	const struct qb_launch_ans *a = (const void *)(t + got[0].ans_off);
	cr_assert(a[0].def == 2 && a[0].value == 16 && a[2].def == QB_LAUNCH_NONE);
	wr32(t + offsetof(struct qb_table_hdr, nlaunch), 3); /* runs past the end */
	cr_assert(!qb_table_valid(t, len, e.nsyms), "objects past the table's end accepted");
	wr32(t + offsetof(struct qb_table_hdr, nlaunch), 2);
	uint32_t at = rd32(t + offsetof(struct qb_table_hdr, launch_off));
	wr32(t + at + 8, 4); /* object 0's answers past the filter's end */
	cr_assert(!qb_table_valid(t, len, e.nsyms), "answers past the table's end accepted");
	wr32(t + at + 8, 3);
	wr32(t + offsetof(struct qb_table_hdr, nnames), 3);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "a filter of a size not a power of two accepted");
	wr32(t + offsetof(struct qb_table_hdr, nnames), 1);
	wr16(t + 6, QB_TABLE_HDR5_SIZE);
	cr_assert(!qb_table_valid(t, len, e.nsyms), "a record in a header without launch_off accepted");
	wr16(t + 6, QB_TABLE_HDR7_SIZE);
	cr_assert(qb_table_valid(t, len, e.nsyms));
	uint64_t id = qb_table_compute_id(t, len);
	wr32(t + offsetof(struct qb_table_hdr, table_id), 0x12345678);
	cr_assert_eq(qb_table_compute_id(t, len), id, "the identity reads its own field");
	t[len - 1] ^= 1;
	cr_assert_neq(qb_table_compute_id(t, len), id, "the identity misses the last byte");
	free(t);
	free(hints);
	elf_free(&e);
}

/* Grouping keeps the multiset of relocations, keeps symbol-less entries
 * in their slots, groups by symbol, and is a no-op the second time. */
Test(relsort, groups_by_symbol_and_keeps_relative_slots)
{
	struct elf e;
	/* libstdc++ (a gcc dependency): thousands of symbolic data relocations */
	const char *lib = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6";
	cr_assert_eq(elf_load_file(&e, lib), 0, "%s: %s", lib, e.err);
	size_t re = elf_relent(&e, e.rel_isrela);
	uint64_t n = e.rel_size / re;
	cr_assert_gt(n, 100);
	struct rel *before = calloc(n, sizeof *before);
	for (uint64_t k = 0; k < n; k++)
		elf_rel_get(&e, e.rel_off + k * re, e.rel_isrela, &before[k]);
	/* scramble symbolic relocations so there is something to group */
	uint64_t last = n;
	for (uint64_t k = 0; k < n; k++) {
		if (!before[k].sym)
			continue;
		if (last < n) {
			struct rel a, b;
			elf_rel_get(&e, e.rel_off + last * re, e.rel_isrela, &a);
			elf_rel_get(&e, e.rel_off + k * re, e.rel_isrela, &b);
			elf_rel_put(&e, e.rel_off + last * re, e.rel_isrela, &b);
			elf_rel_put(&e, e.rel_off + k * re, e.rel_isrela, &a);
			last = n;
		} else {
			last = k;
		}
	}
	long moved = rel_sort(&e);
	cr_assert_gt(moved, 0);
	cr_assert(rel_grouped(&e));
	uint64_t sum_b = 0, sum_a = 0;
	uint32_t prev = 0;
	for (uint64_t k = 0; k < n; k++) {
		struct rel r;
		elf_rel_get(&e, e.rel_off + k * re, e.rel_isrela, &r);
		if (!before[k].sym) {
			cr_assert_eq(r.sym, 0u);
			cr_assert_eq(r.off, before[k].off, "symbol-less relocation %lu moved", (unsigned long)k);
		} else {
			cr_assert_geq(r.sym, prev);
			prev = r.sym;
		}
		sum_b += before[k].off * 31 + before[k].sym * 7 + before[k].type + (uint64_t)before[k].addend;
		sum_a += r.off * 31 + r.sym * 7 + r.type + (uint64_t)r.addend;
	}
	cr_assert_eq(sum_a, sum_b, "relocations changed, not just moved");
	cr_assert_eq(rel_sort(&e), 0);
	free(before);
	elf_free(&e);
}

/* Truncations and byte corruptions of real files: the reader either
 * accepts the image or returns an error with a message; table building on
 * accepted images must stay inside the buffer. */
Test(reader, survives_truncation_and_corruption)
{
	const char *files[] = { real_libs[1], "/usr/i686-linux-gnu/lib/libm.so.6", "/bin/true" };
	for (unsigned f = 0; f < sizeof files / sizeof *files; f++) {
		struct elf e0;
		cr_assert_eq(elf_load_file(&e0, files[f]), 0, "%s: %s", files[f], e0.err);
		size_t size = e0.size;
		size_t step = size / 97 + 1;
		for (size_t cut = 0; cut < size; cut += step) {
			uint8_t *b = malloc(cut ? cut : 1);
			memcpy(b, e0.buf, cut);
			struct elf e;
			if (elf_parse(&e, "t", b, cut) < 0)
				cr_assert(e.err[0], "error without message");
			elf_free(&e);
		}
		srand(1234 + f);
		for (int round = 0; round < 300; round++) {
			uint8_t *b = malloc(size);
			memcpy(b, e0.buf, size);
			/* hit the headers and tables, where offsets live */
			for (int k = 0; k < 8; k++) {
				size_t at = (size_t)rand() % (size < 16384 ? size : 16384);
				b[at] = (uint8_t)rand();
			}
			struct elf e;
			if (elf_parse(&e, "t", b, size) == 0 && e.dyn_ph >= 0) {
				size_t len;
				free(qbt_build(&e, 0, &len));
				rel_sort(&e);
			} else {
				cr_assert(e.err[0] || e.dyn_ph < 0);
			}
			elf_free(&e);
		}
		elf_free(&e0);
	}
}

#include "dynsort.h"

/* Standard lookups, written from the gABI / GNU hash descriptions. */
static uint32_t gnu_lookup(const struct elf *e, const uint8_t *g, const char *name)
{
	uint32_t nb = rd32(g), symoff = rd32(g + 4), nbloom = rd32(g + 8), shift = rd32(g + 12);
	unsigned ws = e->is64 ? 8 : 4, bits = ws * 8;
	uint32_t h = qb_gnu_hash(name);
	const uint8_t *bloom = g + 16;
	uint64_t word = ws == 8 ? rd64(bloom + 8ull * ((h / bits) % nbloom)) : rd32(bloom + 4ull * ((h / bits) % nbloom));
	if (!((word >> (h % bits)) & (word >> ((h >> shift) % bits)) & 1))
		return 0;
	const uint8_t *buckets = bloom + (uint64_t)nbloom * ws, *chain = buckets + 4ull * nb;
	uint32_t i = rd32(buckets + 4ull * (h % nb));
	if (!i)
		return 0;
	for (;; i++) {
		uint32_t c = rd32(chain + 4ull * (i - symoff));
		if ((c | 1) == (h | 1) && !strcmp(elf_sym_name(e, i), name))
			return i;
		if (c & 1)
			return 0;
	}
}

static uint32_t sysv_lookup(const struct elf *e, const uint8_t *t, const char *name)
{
	uint32_t nb = rd32(t);
	for (uint32_t i = rd32(t + 8 + 4ull * (qb_sysv_hash(name) % nb)), n = 0; i && n < e->nsyms; n++) {
		if (!strcmp(elf_sym_name(e, i), name))
			return i;
		i = rd32(t + 8 + 4ull * nb + 4ull * i);
	}
	return 0;
}

/* Reordering for -O1 tables: the permutation moves every symbol with its
 * version and keeps relocations pointing at the same names; the rebuilt
 * tables find every defined symbol through the standard algorithms. */
Test(dynsort, renumbering_and_rebuilt_tables)
{
	const char *files[] = { "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", real_libs[2] };
	for (unsigned f = 0; f < 2; f++) {
		struct elf e;
		cr_assert_eq(elf_load_file(&e, files[f]), 0, "%s", e.err);
		uint32_t n = e.nsyms;
		char **names = calloc(n, sizeof *names);
		uint16_t *vs = calloc(n, 2);
		for (uint32_t i = 0; i < n; i++) {
			names[i] = strdup(elf_sym_name(&e, i));
			vs[i] = elf_versym(&e, i);
		}
		size_t re = elf_relent(&e, e.rel_isrela), nrel = e.rel_size / re;
		char **rn = calloc(nrel + 1, sizeof *rn);
		for (size_t k = 0; k < nrel; k++) {
			struct rel r;
			elf_rel_get(&e, e.rel_off + k * re, e.rel_isrela, &r);
			rn[k] = names[r.sym];
		}
		uint32_t symoff;
		free(dynsort_order(&e, 1, 1, &symoff));
		struct gnu_params gp = gnu_params_o1(&e, symoff);
		uint32_t *order = dynsort_order(&e, 1, gp.nbuckets, &symoff);
		cr_assert_eq(symoff, gp.symoffset);
		cr_assert_eq(dynsort_apply(&e, order), 0);
		for (uint32_t k = 0; k < n; k++) {
			cr_assert_str_eq(elf_sym_name(&e, k), names[order[k]]);
			cr_assert_eq(elf_versym(&e, k), vs[order[k]], "%s: version of %s", files[f], names[order[k]]);
		}
		for (size_t k = 0; k < nrel; k++) {
			struct rel r;
			elf_rel_get(&e, e.rel_off + k * re, e.rel_isrela, &r);
			cr_assert_str_eq(elf_sym_name(&e, r.sym), rn[k], "%s: relocation %zu", files[f], k);
		}
		size_t gl, sl;
		uint8_t *g = gnu_hash_build(&e, &gp, &gl);
		uint8_t *s = sysv_hash_build(&e, prime_at_least(n), &sl);
		cr_assert(g && s);
		unsigned found = 0;
		for (uint32_t i = 1; i < n; i++) {
			Elf64_Sym sym;
			elf_sym_get(&e, i, &sym);
			const char *nm = elf_sym_name(&e, i);
			cr_assert_eq(sysv_lookup(&e, s, nm) != 0, 1, "%s: %s not in .hash", files[f], nm);
			if (sym.st_shndx == SHN_UNDEF)
				continue;
			/* versioned duplicates share a name: any of them is a hit */
			uint32_t j = gnu_lookup(&e, g, nm);
			cr_assert(j && !strcmp(elf_sym_name(&e, j), nm), "%s: %s not in .gnu.hash", files[f], nm);
			found++;
		}
		cr_assert_gt(found, 1000);
		/* sorting an already sorted table changes nothing */
		uint32_t *again = dynsort_order(&e, 1, gp.nbuckets, &symoff);
		for (uint32_t k = 0; k < n; k++)
			cr_assert_eq(again[k], k);
		free(again);
		free(order);
		free(g);
		free(s);
		elf_free(&e);
	}
}

/* The maps linkopt finds things by over a whole run (tools/linkopt/index.c):
 * the first value put for a key stays, and a file forgotten from a map
 * whose probe runs it sat in leaves every other file found. */
Test(index, strmap_keeps_the_first_value)
{
	struct strmap m = { 0 };
	char keys[3000][16];
	for (unsigned i = 0; i < 3000; i++) {
		snprintf(keys[i], sizeof keys[i], "lib%u.so", i % 1000);
		cr_assert_eq(strmap_put(&m, keys[i], i), 0);
	}
	cr_assert_eq(m.n, 1000);
	for (unsigned i = 0; i < 1000; i++) {
		uint32_t v = ~0u;
		cr_assert(strmap_get(&m, keys[i + 1000], &v), "%s", keys[i]);
		cr_assert_eq(v, i, "%s: %u", keys[i], v);
	}
	uint32_t v;
	cr_assert_not(strmap_get(&m, "libnone.so", &v));
	strmap_free(&m);
	cr_assert_not(strmap_get(&m, "lib1.so", &v));
}

Test(index, filemap_forgets_one_file_only)
{
	struct filemap m = { 0 };
	uint32_t v;
	/* many files of one device, inode numbers close together: long runs */
	for (unsigned i = 0; i < 5000; i++)
		cr_assert_eq(filemap_put(&m, 7, 100 + i, i), 0);
	cr_assert_eq(filemap_put(&m, 7, 100, 99999), 0);
	cr_assert(filemap_get(&m, 7, 100, &v) && v == 0, "the first value stays");
	for (unsigned i = 0; i < 5000; i += 3)
		filemap_del(&m, 7, 100 + i);
	filemap_del(&m, 8, 100);  /* not there: nothing happens */
	for (unsigned i = 0; i < 5000; i++) {
		int there = filemap_get(&m, 7, 100 + i, &v);
		cr_assert_eq(there, i % 3 != 0, "inode %u", 100 + i);
		cr_assert(!there || v == i, "inode %u: %u", 100 + i, v);
	}
	cr_assert_not(filemap_get(&m, 8, 101, &v));
	for (unsigned i = 0; i < 5000; i += 3)
		cr_assert_eq(filemap_put(&m, 7, 100 + i, 10000 + i), 0);
	for (unsigned i = 0; i < 5000; i++)
		cr_assert(filemap_get(&m, 7, 100 + i, &v) && v == (i % 3 ? i : 10000 + i), "inode %u", 100 + i);
	filemap_free(&m);
}
