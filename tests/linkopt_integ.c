/* linkopt integration tests over real files: the fixture program and
 * libraries of tests/linkopt/, linked by GNU ld, lld and mold, 64- and
 * 32-bit, against glibc and musl (see tests/linkopt.mk). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "elffile.h"
#include "linkopt_fixture.h"
#include "appview.h"
#include "search.h"
#include "lib/run.h"
#include "lib/text.h"
#include "qbtable.h"
#include "startread.h"

#define VARIANT_TEST(name) LOT_VARIANT_TEST(linkopt, name)

/* A fresh copy of a variant's fixtures, optimized (all three files). */
static char *optimized_copy_opt(const char *v, const char *opt)
{
	char *d = lot_copy_variant(v);
	struct shell_result r = shell("%s %s %s/prog %s/liba.so %s/libb.so", lot_bin(), opt, d, d, d);
	cr_assert_eq(r.status, 0, "%s: linkopt failed: %s", v, r.err);
	cr_assert_str_empty(r.err, "%s: linkopt printed: %s", v, r.err);
	shell_result_free(&r);
	return d;
}

static char *optimized_copy(const char *v)
{
	return optimized_copy_opt(v, "");
}

VARIANT_TEST(stock_loader_runs_optimized_program)
{
	const char *v = lot_variants[*vi];
	char *orig = lot_copy_variant(v);
	char *d = optimized_copy(v);
	struct shell_result a = shell("%s %s/prog x y", lot_loader_prefix(v), orig);
	struct shell_result b = shell("%s %s/prog x y", lot_loader_prefix(v), d);
	cr_assert_eq(a.status, 3, "%s: original program: status %d %s", v, a.status, a.err);
	cr_assert_eq(b.status, a.status, "%s: status %d vs %d: %s", v, b.status, a.status, b.err);
	cr_assert_str_eq(b.out, a.out, "%s", v);
	cr_assert_str_eq(b.err, a.err, "%s", v);
	/* the tables really are there */
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, p), 0, "%s: %s", p, e.err);
		cr_assert(e.syminfo_off && e.syminfo_size == 4ull * e.nsyms, "%s: no DT_SYMINFO", p);
		cr_assert(qb_table_valid(e.buf + e.qbt_off, e.qbt_size, e.nsyms), "%s: no valid QB table", p);
		/* .dynstr holds the symbol names in symbol order */
		uint64_t last = 0;
		for (uint32_t k = 1; k < e.nsyms; k++) {
			Elf64_Sym sym;
			elf_sym_get(&e, k, &sym);
			if (sym.st_name > last)
				cr_assert_eq(sym.st_name, k == 1 ? 1 : last + strlen(elf_dynstr(&e, last)) + 1,
					     "%s: name of symbol %u not next in .dynstr", p, k);
			else
				cr_assert(!sym.st_name || !strcmp(elf_dynstr(&e, sym.st_name), elf_sym_name(&e, k)));
			if (sym.st_name > last)
				last = sym.st_name;
		}
		elf_free(&e);
	}
	shell_result_free(&a);
	shell_result_free(&b);
}

/* Each recorded value (docs/FORMAT.md 2.3) is the st_value of the
 * definition its hint names, in the file of the fixture that defines the
 * name (references into the C library are not checked here). */
VARIANT_TEST(values_are_the_hinted_definitions)
{
	const char *v = lot_variants[*vi];
	char *d = optimized_copy(v);
	struct elf f[3];
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		cr_assert_eq(elf_load_file(&f[i], p), 0, "%s: %s", p, f[i].err);
	}
	unsigned checked = 0;
	for (unsigned i = 0; i < 3; i++) {
		const void *t = f[i].buf + f[i].qbt_off;
		cr_assert(qb_table_valid(t, f[i].qbt_size, f[i].nsyms), "%s: %s: no valid table", v, lot_files[i]);
		const uint32_t *hints = qb_table_hints(t), *values = qb_table_values(t);
		if (!hints)
			continue;
		cr_assert_not_null(values, "%s: %s: hints without values", v, lot_files[i]);
		for (uint32_t k = 1; k < f[i].nsyms; k++) {
			if (!values[k])
				continue;
			const char *name = elf_sym_name(&f[i], k);
			int elsewhere = 0, matched = 0;
			for (unsigned j = 0; j < 3; j++) {
				for (uint32_t x = 1; j != i && x < f[j].nsyms; x++) {
					Elf64_Sym s;
					elf_sym_get(&f[j], x, &s);
					if (s.st_shndx == SHN_UNDEF || strcmp(elf_sym_name(&f[j], x), name))
						continue;
					elsewhere = 1;
					matched |= x == hints[k] && s.st_value == values[k];
				}
			}
			/* defined in the fixture: at the hint, with that value */
			cr_assert(!elsewhere || matched, "%s: %s: %s: no definition at hint %u with value %#x", v,
				  lot_files[i], name, hints[k], values[k]);
			checked += elsewhere;
		}
	}
	cr_assert_gt(checked, 0, "%s: no value recorded", v);
	for (unsigned i = 0; i < 3; i++)
		elf_free(&f[i]);
}

/* Each scope definer (docs/FORMAT.md 2.4) names, by identity, a file of
 * the fixture (or the object itself) whose symbol at the hint has the
 * reference's name, and the definition the standard lookup accepts. */
VARIANT_TEST(scope_definers_name_the_definitions)
{
	const char *v = lot_variants[*vi];
	char *d = optimized_copy(v);
	struct elf f[3];
	uint64_t id[3];
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		cr_assert_eq(elf_load_file(&f[i], p), 0, "%s: %s", p, f[i].err);
		id[i] = qb_table_self_id(f[i].buf + f[i].qbt_off);
	}
	unsigned checked = 0;
	for (unsigned i = 0; i < 3; i++) {
		const void *t = f[i].buf + f[i].qbt_off;
		const uint32_t *def = qb_table_definers(t), *hints = qb_table_hints(t);
		uint32_t nn;
		const struct qb_needed_id *nd = qb_table_needed(t, &nn);
		for (uint32_t k = 1; def && k < f[i].nsyms; k++) {
			if (!def[k])
				continue;
			cr_assert_leq(def[k], nn, "%s: %s: definer %u past needed[]", v, lot_files[i], def[k]);
			const struct qb_needed_id *n = &nd[def[k] - 1];
			cr_assert_eq(n->dynidx, QB_NEEDED_SCOPE, "%s: %s", v, lot_files[i]);
			uint64_t want = (uint64_t)n->id[1] << 32 | n->id[0];
			int j = want ? -1 : (int)i;
			for (unsigned x = 0; x < 3 && j < 0; x++)
				if (id[x] == want)
					j = (int)x;
			if (j < 0)
				continue;  /* the C library */
			const char *name = elf_sym_name(&f[i], k);
			cr_assert_lt(hints[k], f[j].nsyms, "%s: %s: %s", v, lot_files[i], name);
			cr_assert_str_eq(elf_sym_name(&f[j], hints[k]), name, "%s: %s: definer %s", v, lot_files[i],
					 lot_files[j]);
			Elf64_Sym s;
			elf_sym_get(&f[j], hints[k], &s);
			cr_assert(s.st_shndx != SHN_UNDEF && s.st_value, "%s: %s: %s: not a definition in %s", v,
				  lot_files[i], name, lot_files[j]);
			checked++;
		}
	}
	cr_assert_gt(checked, 0, "%s: no scope definer recorded", v);
	for (unsigned i = 0; i < 3; i++)
		elf_free(&f[i]);
}

struct std_count {
	const struct elf *e;
	unsigned n;
};

static void count_std(void *arg, const struct rel *r)
{
	struct std_count *c = arg;
	const struct elf *e = c->e;
	if (r->sym && r->sym < e->nsyms &&
	    !(rd16(e->buf + e->syminfo_off + 4ull * r->sym + 2) & SYMINFO_FLG_DIRECT))
		c->n++;
}

/* The table's count of relocations not bound directly (what the loader
 * weighs its global table against) is the number of relocation entries
 * whose symbol's syminfo entry is not direct. */
VARIANT_TEST(std_relocs_counts_the_references_left_to_the_loader)
{
	const char *v = lot_variants[*vi];
	char *d = optimized_copy(v);
	unsigned any = 0;
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, p), 0, "%s: %s", p, e.err);
		uint32_t n;
		cr_assert(qb_table_std_relocs(e.buf + e.qbt_off, &n), "%s: no count in the table", p);
		struct std_count c = { &e, 0 };
		elf_each_rel(&e, count_std, &c);
		cr_assert_eq(n, c.n, "%s: the table counts %u, the relocations %u", p, n, c.n);
		any += n;
		elf_free(&e);
	}
	cr_assert_gt(any, 0, "%s: nothing left to the loader: the test proves nothing", v);
}

/* The same run again (the same files: the program given makes the scope
 * definers) changes nothing. */
static void rerun_changes_nothing(const char *d, const char *opt)
{
	for (unsigned i = 0; i < 3; i++) {
		struct shell_result c = shell("cp -p %s/%s %s/%s.first", d, lot_files[i], d, lot_files[i]);
		cr_assert_eq(c.status, 0, "%s", c.err);
		shell_result_free(&c);
	}
	struct shell_result r = shell("%s %s %s/prog %s/liba.so %s/libb.so", lot_bin(), opt, d, d, d);
	cr_assert_eq(r.status, 0, "%s: %s", d, r.err);
	shell_result_free(&r);
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX], q[PATH_MAX + 8];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		snprintf(q, sizeof q, "%s.first", p);
		cr_assert(same_file(p, q), "%s: second %s run changed the file", p, opt);
	}
}

VARIANT_TEST(second_run_is_byte_identical)
{
	const char *v = lot_variants[*vi];
	rerun_changes_nothing(optimized_copy(v), "");
}

/* A writable table segment of a library goes right after the file's last
 * loadable segment when that one is writable and its bss ends in its
 * last file page: on the next page, at the same distance between file
 * offset and address, so that one mapping maps both (docs/FORMAT.md 1).
 * Everything else of the file still reads as before: the program runs
 * (stock_loader_runs_optimized_program), elflint finds nothing new. */
VARIANT_TEST(table_segment_follows_the_writable_one)
{
	const char *v = lot_variants[*vi];
	char *orig = lot_copy_variant(v);
	char *d = optimized_copy(v);
	for (unsigned i = 1; i < 3; i++) {
		char p[PATH_MAX], q[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", orig, lot_files[i]);
		snprintf(q, sizeof q, "%s/%s", d, lot_files[i]);
		struct elf a, b;
		cr_assert_eq(elf_load_file(&a, p), 0, "%s: %s", p, a.err);
		cr_assert_eq(elf_load_file(&b, q), 0, "%s: %s", q, b.err);
		const Elf64_Phdr *last = 0, *seg = 0;
		unsigned nload = 0;
		for (unsigned k = 0; k < a.phnum; k++)
			if (a.ph[k].p_type == PT_LOAD)
				last = &a.ph[k];
		for (unsigned k = 0; k < b.phnum; k++)
			if (b.ph[k].p_type == PT_LOAD && ++nload)
				seg = &b.ph[k];
		cr_assert(last && seg && seg->p_vaddr > last->p_vaddr, "%s: %s: no new segment after the others", v,
			  lot_files[i]);
		uint64_t page = 4096, fend = (last->p_vaddr + last->p_filesz + page - 1) & -page;
		int joins = (last->p_flags & PF_W) && last->p_filesz && last->p_vaddr + last->p_memsz <= fend &&
			    (seg->p_flags & PF_W);
		if (joins) {
			cr_expect_eq(seg->p_vaddr, fend, "%s: %s: table segment at %#llx, not on the page after "
				     "the writable one (%#llx)", v, lot_files[i], (unsigned long long)seg->p_vaddr,
				     (unsigned long long)fend);
			cr_expect_eq(seg->p_vaddr - seg->p_offset, last->p_vaddr - last->p_offset,
				     "%s: %s: the table segment's offset and address differ by another distance",
				     v, lot_files[i]);
			/* the padding before it, the rest of the bss page, is zeros */
			for (uint64_t o = last->p_offset + last->p_filesz; o < seg->p_offset; o++)
				cr_assert_eq(b.buf[o], 0, "%s: %s: byte %#llx before the table segment", v,
					     lot_files[i], (unsigned long long)o);
		}
		cr_log_info("%s: %s: table segment %s", v, lot_files[i], joins ? "joins the writable one" : "apart");
		elf_free(&a);
		elf_free(&b);
	}
}

/* eu-elflint knows no tag outside the gABI/GNU set, so linkopt's own
 * entries (DT_QB_TABLE and its size; in a program DT_QB_CLOSURE and its
 * size) are the only complaints allowed to be new: each "unknown tag"
 * line must name an entry that really holds one of them.
 * Sections are compared by name: linkopt keeps section headers in file
 * order, so the tables it moves change the indices of others. */
#define ELFLINT "eu-elflint --gnu-ld %s | sed -e 's|%s|F|' -e 's|^section \\[ *[0-9]*\\]|section|'"

VARIANT_TEST(elflint_reports_nothing_new)
{
	const char *v = lot_variants[*vi];
	char *orig = lot_copy_variant(v);
	char *d = optimized_copy(v);
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX], q[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		snprintf(q, sizeof q, "%s/%s", orig, lot_files[i]);
		struct shell_result a = shell(ELFLINT, q, orig);
		struct shell_result b = shell(ELFLINT, p, d);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
		char *save, *line;
		for (line = strtok_r(b.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (strstr(a.out, line))
				continue;
			unsigned ent;
			if (sscanf(line, "section '.dynamic': entry %u: unknown tag", &ent) == 1 &&
			    ent < e.ndyn && (e.dyn[ent].d_tag == DT_QB_TABLE || e.dyn[ent].d_tag == DT_QB_TABLESZ ||
			    e.dyn[ent].d_tag == DT_QB_CLOSURE || e.dyn[ent].d_tag == DT_QB_CLOSURESZ))
				continue;
			if (!strcmp(line, "No errors") && !strstr(a.out, "No errors"))
				continue;
			cr_assert_fail("%s/%s: new elflint message: %s", v, lot_files[i], line);
		}
		elf_free(&e);
		shell_result_free(&a);
		shell_result_free(&b);
	}
}

static const char *field(char *line, int n)
{
	static char buf[256];
	char *save, *t = strtok_r(line, " \t", &save);
	for (int i = 0; t && i < n; i++)
		t = strtok_r(NULL, " \t", &save);
	snprintf(buf, sizeof buf, "%s", t ? t : "");
	return buf;
}

/* --dump and readelf's "Dynamic info segment" agree on every entry. */
VARIANT_TEST(dump_agrees_with_readelf)
{
	const char *v = lot_variants[*vi];
	char *d = optimized_copy(v);
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		struct shell_result dump = shell("%s --dump %s | awk '$1 ~ /^[0-9]+$/'", lot_bin(), p);
		struct shell_result re = shell("readelf -dW %s | sed -n '/Dynamic info segment/,$p' | "
				       "awk '$1 ~ /^[0-9]+:$/ && $1 != \"0:\"'", p);
		cr_assert_eq(dump.status, 0);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
		cr_assert_eq(count_lines(dump.out), e.nsyms - 1, "%s: dump has %u lines for %u symbols", p,
			     count_lines(dump.out), e.nsyms);
		cr_assert_eq(count_lines(re.out), e.nsyms - 1, "%s: readelf shows %u entries\n%s", p,
			     count_lines(re.out), re.out);
		char *s1, *s2, *l1 = strtok_r(dump.out, "\n", &s1), *l2 = strtok_r(re.out, "\n", &s2);
		for (; l1 && l2; l1 = strtok_r(NULL, "\n", &s1), l2 = strtok_r(NULL, "\n", &s2)) {
			char a[512], b[512], idx[64], name[256], bound[256], hint[64];
			snprintf(a, sizeof a, "%s", l1);
			snprintf(b, sizeof b, "%s", l2);
			snprintf(idx, sizeof idx, "%s:", field(a, 0));
			snprintf(a, sizeof a, "%s", l1);
			snprintf(hint, sizeof hint, "%s", field(a, 5));
			snprintf(a, sizeof a, "%s", l1);
			snprintf(name, sizeof name, "%s", field(a, 6));
			snprintf(a, sizeof a, "%s", l1);
			snprintf(bound, sizeof bound, "%s", field(a, 1));
			cr_assert_str_eq(field(b, 0), idx, "%s: %s | %s", p, l1, l2);
			snprintf(b, sizeof b, "%s", l2);
			cr_assert_str_eq(field(b, 1), name, "%s: %s | %s", p, l1, l2);
			snprintf(b, sizeof b, "%s", l2);
			const char *rb = field(b, 2);
			int direct = strstr(l2, "DIRECT") != NULL;
			cr_assert_eq(direct, bound[0] != '<', "%s: %s | %s", p, l1, l2);
			/* every direct binding records its definition; another
			 * reference only through a scope definer (INDEX@N) */
			cr_assert_eq(direct, strcmp(hint, "-") != 0 && !strchr(hint, '@'), "%s: %s | %s", p, l1, l2);
			if (!strcmp(rb, "SELF"))
				cr_assert(!strncmp(bound, "<self", 5), "%s: %s | %s", p, l1, l2);
			else if (direct && rb[0] >= '0' && rb[0] <= '9') {
				unsigned k = (unsigned)atoi(rb);
				cr_assert(k < e.ndyn && e.dyn[k].d_tag == DT_NEEDED, "%s: %s", p, l2);
				cr_assert_str_eq(elf_dynstr(&e, e.dyn[k].d_un.d_val), bound, "%s: %s | %s", p, l1, l2);
			} else if (direct)
				cr_assert_str_eq(rb, bound, "%s: %s | %s", p, l1, l2);
		}
		elf_free(&e);
		shell_result_free(&dump);
		shell_result_free(&re);
	}
}

static const char *bound_of(const char *dump, const char *sym)
{
	static char b[256];
	char pat[300];
	snprintf(pat, sizeof pat, " %s\n", sym);
	const char *l = strstr(dump, pat);
	cr_assert(l, "symbol %s not in dump", sym);
	while (l > dump && l[-1] != '\n')
		l--;
	unsigned idx;
	cr_assert_eq(sscanf(l, "%u %255s", &idx, b), 2);
	return b;
}

VARIANT_TEST(binding_decisions)
{
	const char *v = lot_variants[*vi];
	char *d = optimized_copy(v);
	struct shell_result p = shell("%s --dump %s/prog", lot_bin(), d);
	struct shell_result a = shell("%s --dump %s/liba.so", lot_bin(), d);
	cr_assert_str_eq(bound_of(p.out, "a_func"), "liba.so", "%s\n%s", v, p.out);
	cr_assert_str_eq(bound_of(p.out, "b_func"), "libb.so", "%s\n%s", v, p.out);
	cr_assert_str_eq(bound_of(p.out, "shared_dup"), "<multi>", "%s\n%s", v, p.out);
	cr_assert_str_eq(bound_of(p.out, "weak_thing"), "<vague>", "%s\n%s", v, p.out);
	cr_assert_str_eq(bound_of(a.out, "_ZTV4Fake"), "<vague>", "%s\n%s", v, a.out);
	cr_assert_str_eq(bound_of(a.out, "b_func"), "libb.so", "%s\n%s", v, a.out);
	cr_assert_str_eq(bound_of(a.out, "a_func"), "<self>", "%s\n%s", v, a.out);
	shell_result_free(&p);
	shell_result_free(&a);
}

VARIANT_TEST(check_detects_changed_library)
{
	const char *v = lot_variants[*vi];
	char *d = optimized_copy(v);
	struct shell_result ok = shell("%s --check %s/prog %s/liba.so", lot_bin(), d, d);
	cr_assert_eq(ok.status, 0, "%s: fresh tables reported stale: %s%s", v, ok.out, ok.err);
	struct shell_result st = shell("cp %s/libb2.so %s/libb.so && %s --check %s/liba.so", d, d, lot_bin(), d);
	cr_assert_eq(st.status, 1, "%s: stale binding not detected: %s%s", v, st.out, st.err);
	cr_assert(strstr(st.out, "b_func bound to libb.so"), "%s: %s", v, st.out);
	cr_assert(strstr(st.out, "libb.so changed since linkopt ran"), "%s: %s", v, st.out);
	cr_assert_eq(count_lines(st.out), 2, "%s: only b_func and libb's identity went stale: %s", v, st.out);
	shell_result_free(&ok);
	shell_result_free(&st);
}

VARIANT_TEST(interposers_lists_duplicate_definitions)
{
	const char *v = lot_variants[*vi];
	char *d = lot_copy_variant(v);
	struct shell_result r = shell("%s --interposers %s/prog", lot_bin(), d);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char want[1024];
	snprintf(want, sizeof want, "shared_dup: %s/liba.so %s/libb.so\n", d, d);
	cr_assert(strstr(r.out, want), "%s: %s", v, r.out);
	cr_assert(!strstr(r.out, "a_func:"), "%s: %s", v, r.out);
	shell_result_free(&r);
}

VARIANT_TEST(interpose_list_and_nodirect)
{
	const char *v = lot_variants[*vi];
	char *d = lot_copy_variant(v);
	struct shell_result r = shell("printf 'a_func\\n' > %s/list && %s --nodirect %s/libb.so && "
			      "%s --interpose-list %s/list %s/prog && %s --dump %s/prog && %s --dump %s/libb.so",
			      d, lot_bin(), d, lot_bin(), d, d, lot_bin(), d, lot_bin(), d);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(bound_of(r.out, "a_func"), "<nodirect>", "%s\n%s", v, r.out);
	cr_assert_str_eq(bound_of(r.out, "b_func"), "<nodirect>", "%s\n%s", v, r.out);
	cr_assert_str_eq(bound_of(strstr(r.out, "libb.so: ELFCLASS"), "b_func"), "<self,nodirect>", "%s\n%s", v, r.out);
	/* QB_TF_NOEXTNONE only where no definition is no-direct */
	const char *libb = strstr(r.out, "libb.so: ELFCLASS");
	cr_assert(!strstr(libb, "noextnone"), "%s: libb.so has no-direct definitions:\n%s", v, libb);
	cr_assert(strstr(r.out, "noextnone") && strstr(r.out, "noextnone") < libb,
		  "%s: prog defines nothing no-direct, yet lacks the flag:\n%s", v, r.out);
	shell_result_free(&r);
}

VARIANT_TEST(keeps_mode_owner_and_times)
{
	const char *v = lot_variants[*vi];
	char *d = lot_copy_variant(v);
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/prog", d);
	struct shell_result r = shell("chmod 751 %s && touch -d '2001-02-03 04:05:06' %s && %s %s", p, p, lot_bin(), p);
	cr_assert_eq(r.status, 0, "%s", r.err);
	struct stat st;
	cr_assert_eq(stat(p, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0751);
	cr_assert_eq(st.st_uid, getuid());
	struct tm tm = { .tm_year = 101, .tm_mon = 1, .tm_mday = 3, .tm_hour = 4, .tm_min = 5, .tm_sec = 6, .tm_isdst = -1 };
	cr_assert_eq(st.st_mtime, mktime(&tm));
	struct elf e;
	cr_assert_eq(elf_load_file(&e, p), 0);
	cr_assert(e.qbt_off, "not optimized");
	elf_free(&e);
	shell_result_free(&r);
}

VARIANT_TEST(dash_o_leaves_input_alone)
{
	const char *v = lot_variants[*vi];
	char *d = lot_copy_variant(v);
	struct shell_result r = shell("cp -p %s/liba.so %s/ref && %s -o %s/out.so %s/liba.so", d, d, lot_bin(), d, d);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char a[PATH_MAX], b[PATH_MAX];
	snprintf(a, sizeof a, "%s/liba.so", d);
	snprintf(b, sizeof b, "%s/ref", d);
	cr_assert(same_file(a, b));
	snprintf(a, sizeof a, "%s/out.so", d);
	struct elf e;
	cr_assert_eq(elf_load_file(&e, a), 0, "%s", e.err);
	cr_assert(e.qbt_off);
	elf_free(&e);
	shell_result_free(&r);
}

/* One line "linkopt: FILE: reason", exit status 2, file untouched. */
static void expect_rejected(const char *path, const char *why)
{
	char ref[PATH_MAX + 8];
	snprintf(ref, sizeof ref, "%s.ref", path);
	struct shell_result c = shell("cp -p %s %s", path, ref);
	shell_result_free(&c);
	struct stat before, after;
	cr_assert_eq(stat(path, &before), 0);
	struct shell_result r = shell("%s %s", lot_bin(), path);
	cr_assert_eq(r.status, 2, "%s: status %d", why, r.status);
	cr_assert_str_empty(r.out, "%s", why);
	cr_assert_eq(count_lines(r.err), 1, "%s: %s", why, r.err);
	char prefix[PATH_MAX + 16];
	snprintf(prefix, sizeof prefix, "linkopt: %s: ", path);
	cr_assert(!strncmp(r.err, prefix, strlen(prefix)) && strlen(r.err) > strlen(prefix) + 1, "%s: %s", why, r.err);
	cr_assert(same_file(path, ref), "%s: file changed", why);
	cr_assert_eq(stat(path, &after), 0);
	cr_assert_eq(before.st_ino, after.st_ino, "%s: file replaced", why);
	shell_result_free(&r);
}

VARIANT_TEST(bad_input_is_rejected_cleanly)
{
	const char *v = lot_variants[*vi];
	char *d = lot_copy_variant(v);
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/notelf", d);
	struct shell_result r = shell("printf 'just text\\n' > %s", p);
	shell_result_free(&r);
	expect_rejected(p, "not ELF");

	size_t len;
	snprintf(p, sizeof p, "%s/prog", d);
	char *img = read_file(p, &len);
	size_t cuts[] = { 0, 3, 16, 40, 63, 100, 600, len / 3, len / 2, len - 700, len - 1 };
	for (unsigned i = 0; i < sizeof cuts / sizeof *cuts; i++) {
		char t[PATH_MAX];
		snprintf(t, sizeof t, "%s/trunc%u", d, i);
		FILE *f = fopen(t, "wb");
		fwrite(img, 1, cuts[i], f);
		fclose(f);
		expect_rejected(t, "truncated");
	}
	snprintf(p, sizeof p, "%s/machine", d);
	FILE *f = fopen(p, "wb");
	img[18] = 0x28; /* EM_ARM */
	img[19] = 0;
	fwrite(img, 1, len, f);
	fclose(f);
	expect_rejected(p, "unknown machine");
	free(img);

	r = shell("rm %s/libb.so", d);
	shell_result_free(&r);
	snprintf(p, sizeof p, "%s/prog", d);
	expect_rejected(p, "missing library");
	r = shell("%s %s/prog", lot_bin(), d);
	cr_assert(strstr(r.err, "libb.so"), "%s", r.err);
	shell_result_free(&r);
}

/* --root: every dynamic ELF object of a small image, libraries resolved
 * inside the image; other files untouched. */
Test(linkopt, root_optimizes_an_image_tree)
{
	char *d = make_tmpdir(NULL), fix[PATH_MAX];
	cr_assert(realpath(LOT_DIR, fix));
	struct shell_result r = shell("cd %s && mkdir -p usr/bin usr/lib etc && cp %s/m64bfd/prog usr/bin/ && "
			      "cp %s/m64bfd/liba.so %s/m64bfd/libb.so usr/lib/ && printf 'hello\\n' > etc/motd && "
			      "printf 'int main(void){return 0;}' | musl-gcc -static -x c -o usr/bin/static - && "
			      "cp -p usr/bin/static static.ref && cp etc/motd motd.ref",
			      d, fix, fix, fix);
	cr_assert_eq(r.status, 0, "%s", r.err);
	shell_result_free(&r);
	r = shell("%s --root %s", lot_bin(), d);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_empty(r.err);
	shell_result_free(&r);
	const char *objs[] = { "usr/bin/prog", "usr/lib/liba.so", "usr/lib/libb.so" };
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, objs[i]);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
		cr_assert(e.qbt_off && e.syminfo_off, "%s not optimized", p);
		elf_free(&e);
	}
	r = shell("%s --dump %s/usr/lib/liba.so", lot_bin(), d);
	cr_assert_str_eq(bound_of(r.out, "b_func"), "libb.so", "%s", r.out);
	shell_result_free(&r);
	char a[PATH_MAX], b[PATH_MAX];
	snprintf(a, sizeof a, "%s/usr/bin/static", d);
	snprintf(b, sizeof b, "%s/static.ref", d);
	cr_assert(same_file(a, b));
	snprintf(a, sizeof a, "%s/etc/motd", d);
	snprintf(b, sizeof b, "%s/motd.ref", d);
	cr_assert(same_file(a, b));
	/* the libraries are not in the rpath of the program: only the image's
	 * /usr/lib has them, so running it proves the search used the root */
	r = shell("LD_LIBRARY_PATH=%s/usr/lib %s/usr/bin/prog", d, d);
	cr_assert_eq(r.status, 3, "%s", r.err);
	shell_result_free(&r);
	shell_ok(NULL, "%s --root %s", lot_bin(), d);
}

/* An image's symbolic links are followed inside the image, absolute
 * targets too (/usr/lib/libb.so -> /opt/real/libb.so.1 names the image's
 * file, not the host's), as a program chrooted into it finds them. */
Test(linkopt, root_follows_absolute_links_inside_the_image)
{
	char *d = make_tmpdir(NULL), fix[PATH_MAX];
	cr_assert(realpath(LOT_DIR, fix));
	shell_ok(NULL, "cd %s && mkdir -p img/usr/bin img/usr/lib img/opt/real img/lib && cp %s/m64bfd/prog img/usr/bin/ && "
		 "cp %s/m64bfd/liba.so img/usr/lib/ && cp %s/m64bfd/libb.so img/opt/real/libb.so.1 && "
		 "ln -s /opt/real/libb.so.1 img/usr/lib/libb.so && cp /lib/ld-musl-x86_64.so.1 img/lib/ && "
		 "test ! -e /opt/real/libb.so.1",
		 d, fix, fix, fix);
	struct shell_result r = shell("cd %s && %s --root img", d, lot_bin());
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_empty(r.err);
	shell_result_free(&r);
	r = shell("cd %s && %s --dump img/usr/lib/liba.so", d, lot_bin());
	cr_assert_str_eq(bound_of(r.out, "b_func"), "libb.so", "%s", r.out);
	shell_result_free(&r);
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/img/opt/real/libb.so.1", d);
	struct elf e;
	cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
	cr_assert(e.qbt_off && e.syminfo_off, "the link's target was not optimized");
	elf_free(&e);
	shell_ok(NULL, "cd %s && %s --check --root img", d, lot_bin());
	/* chroot as root, or as root of a user namespace of its own */
	const char *as = geteuid() == 0 ? "" : "unshare --user --map-root-user ";
	if (geteuid() == 0 || !shell_status("%strue >/dev/null 2>&1", as)) {
		r = shell("%schroot %s/img /usr/bin/prog x y", as, d);
		cr_assert_eq(r.status, 3, "in the image: %s", r.err);
		shell_result_free(&r);
	}
}

Test(linkopt, cli_help_version_and_usage)
{
	struct shell_result r = shell("%s --help", lot_bin());
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "--dump") && strstr(r.out, "--root"));
	shell_result_free(&r);
	r = shell("%s --version", lot_bin());
	cr_assert_eq(r.status, 0);
	cr_assert(!strncmp(r.out, "linkopt ", 8));
	shell_result_free(&r);
	r = shell("%s", lot_bin());
	cr_assert_eq(r.status, 2);
	shell_result_free(&r);
	r = shell("%s /nonexistent/file", lot_bin());
	cr_assert_eq(r.status, 2);
	cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
	shell_result_free(&r);
}

static char *dir_state(const char *dir);

/* --help says what docs/LINKOPT.md says: -O1 works, LD_LIBRARY_PATH is
 * searched; a level linkopt does not have is refused in one line. */
Test(linkopt, cli_levels_and_library_path_in_help)
{
	struct shell_result r = shell("%s --help", lot_bin());
	cr_assert_eq(r.status, 0);
	cr_expect(strstr(r.out, "-O1") && !strstr(r.out, "reserved"), "%s", r.out);
	cr_expect(strstr(r.out, "LD_LIBRARY_PATH"), "%s", r.out);
	shell_result_free(&r);
	char *d = lot_copy_variant("m64bfd");
	char *before = dir_state(d);
	const char *bad[] = { "-O2", "-Ofast", "-O" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		r = shell("%s %s %s/prog %s/liba.so %s/libb.so", lot_bin(), bad[i], d, d, d);
		cr_expect_eq(r.status, 2, "%s: status %d", bad[i], r.status);
		cr_expect_eq(count_lines(r.err), 1, "%s: %s", bad[i], r.err);
		shell_result_free(&r);
	}
	char *after = dir_state(d);
	cr_expect_str_eq(after, before, "a refused level changed files");
	free(after);
	free(before);
	free(d);
}

/* The libraries where the run finds them through LD_LIBRARY_PATH:
 * linkopt finds them there too; without it, the one line names the
 * directories searched and -L. */
Test(linkopt, finds_libraries_through_ld_library_path)
{
	char *d = lot_copy_variant("m64bfd");
	shell_ok(NULL, "cd %s && mkdir sub && mv liba.so libb.so libb2.so sub/", d);
	struct shell_result ran = shell("cd %s && LD_LIBRARY_PATH=sub ./prog", d);
	cr_assert(*ran.out && !*ran.err, "the program does not run with LD_LIBRARY_PATH=sub: %s", ran.err);
	struct shell_result r = shell("cd %s && %s sub/liba.so sub/libb.so prog", d, lot_bin());
	cr_expect_eq(r.status, 2, "found without LD_LIBRARY_PATH: %s", r.err);
	cr_expect_eq(count_lines(r.err), 1, "%s", r.err);
	cr_expect(strstr(r.err, "not found in ") && strstr(r.err, "-L DIR"), "%s", r.err);
	shell_result_free(&r);
	r = shell("cd %s && LD_LIBRARY_PATH=sub %s sub/liba.so sub/libb.so prog", d, lot_bin());
	cr_expect_eq(r.status, 0, "%s", r.err);
	shell_result_free(&r);
	r = shell("%s --dump %s/prog", lot_bin(), d);
	cr_expect(r.status == 0 && strstr(r.out, "liba.so"), "prog has no tables naming liba.so:\n%s%s", r.out, r.err);
	shell_result_free(&r);
	struct shell_result again = shell("cd %s && LD_LIBRARY_PATH=sub ./prog", d);
	cr_expect_eq(again.status, ran.status);
	cr_expect_str_eq(again.out, ran.out);
	shell_result_free(&again);
	shell_result_free(&ran);
	free(d);
}

struct symview {
	char **reloc_names;  /* symbol name of every relocation, in table order */
	size_t nrel;
};

static void relnames(const char *path, struct symview *sv)
{
	struct elf e;
	cr_assert_eq(elf_load_file(&e, path), 0, "%s: %s", path, e.err);
	size_t n1 = e.rel_size / elf_relent(&e, e.rel_isrela), n2 = e.plt_size / elf_relent(&e, e.plt_isrela);
	sv->nrel = n1 + n2;
	sv->reloc_names = calloc(sv->nrel + 1, sizeof *sv->reloc_names);
	for (size_t k = 0; k < sv->nrel; k++) {
		struct rel r;
		int plt = k >= n1;
		size_t i = plt ? k - n1 : k;
		elf_rel_get(&e, (plt ? e.plt_off : e.rel_off) + i * elf_relent(&e, plt ? e.plt_isrela : e.rel_isrela),
			    plt ? e.plt_isrela : e.rel_isrela, &r);
		char buf[512];
		uint16_t vs = elf_versym(&e, r.sym);
		const char *vn = (vs & 0x7fff) >= 2 ? elf_verneed_name(&e, vs & 0x7fff, NULL) : NULL;
		if (!vn && (vs & 0x7fff) >= 2)
			vn = elf_verdef_name(&e, vs & 0x7fff);
		snprintf(buf, sizeof buf, "%s@%s/%u/%llx", r.sym ? elf_sym_name(&e, r.sym) : "", vn ? vn : "",
			 r.type, (unsigned long long)r.off);
		sv->reloc_names[k] = strdup(buf);
	}
	elf_free(&e);
}

static int cmps(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* -O1 reorders .dynsym for new hash tables: the program still runs, every
 * relocation still names the same symbol and version (PLT ones in the
 * same order), the second run changes nothing and elflint (which checks
 * .hash and .gnu.hash against .dynsym) finds nothing new. */
VARIANT_TEST(o1_renumbers_consistently)
{
	const char *v = lot_variants[*vi];
	char *orig = lot_copy_variant(v);
	char *d = optimized_copy_opt(v, "-O1");
	struct shell_result a = shell("%s %s/prog", lot_loader_prefix(v), orig);
	struct shell_result b = shell("%s %s/prog", lot_loader_prefix(v), d);
	cr_assert_eq(b.status, a.status, "%s: %s", v, b.err);
	cr_assert_str_eq(b.out, a.out, "%s", v);
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX], q[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", orig, lot_files[i]);
		snprintf(q, sizeof q, "%s/%s", d, lot_files[i]);
		struct symview x, y;
		relnames(p, &x);
		relnames(q, &y);
		cr_assert_eq(x.nrel, y.nrel);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, q), 0);
		cr_assert(e.gnuhash_off, "%s: -O1 left no .gnu.hash", q);
		size_t nplt = e.plt_size / elf_relent(&e, e.plt_isrela);
		for (size_t k = x.nrel - nplt; k < x.nrel; k++)
			cr_assert_str_eq(y.reloc_names[k], x.reloc_names[k], "%s: PLT relocation %zu", q, k);
		qsort(x.reloc_names, x.nrel, sizeof *x.reloc_names, cmps);
		qsort(y.reloc_names, y.nrel, sizeof *y.reloc_names, cmps);
		for (size_t k = 0; k < x.nrel; k++)
			cr_assert_str_eq(y.reloc_names[k], x.reloc_names[k], "%s", q);
		struct qb_table_hdr h;
		memcpy(&h, e.buf + e.qbt_off, sizeof h);
		cr_assert(h.flags & QB_TF_DYNSORTED);
		elf_free(&e);
		struct shell_result la = shell(ELFLINT " | grep -v 'unknown tag' | grep -v 'No errors'", p, orig);
		struct shell_result lb = shell(ELFLINT " | grep -v 'unknown tag' | grep -v 'No errors'", q, d);
		const char *extra = first_new_line(la.out, lb.out);
		cr_assert(!extra, "%s: new elflint message: %s", q, extra);
	}
	rerun_changes_nothing(d, "-O1");
}

/* gcc -B <wrapper dir>: every executable and library the link step makes
 * comes out optimized and still runs; -r and -static links are left alone. */
Test(linkopt, link_wrapper_optimizes_every_link)
{
	char w[PATH_MAX], src[PATH_MAX];
	cr_assert(realpath(LINKOPT_WRAP_DIR, w));
	cr_assert(realpath("tests/linkopt", src));
	const char *ccs[] = { "gcc", "gcc -fuse-ld=lld", "musl-gcc -fuse-ld=mold", "i386-linux-musl-gcc" };
	for (unsigned i = 0; i < sizeof ccs / sizeof *ccs; i++) {
		char *d = make_tmpdir(NULL);
		struct shell_result r = shell("cd %s && %s -B%s -shared -fPIC -o libb.so %s/libb.c && "
				      "%s -B%s -shared -fPIC -o liba.so %s/liba.c -L. -lb && "
				      "%s -B%s -o prog %s/prog.c -L. -la -lb -Wl,-rpath,%s && "
				      "%s -B%s -c -o x.o %s/libb.c && %s -B%s -r -o r.o x.o && cp r.o r.ref && ./prog",
				      d, ccs[i], w, src, ccs[i], w, src, ccs[i], w, src, d, ccs[i], w, src, ccs[i], w);
		cr_assert_eq(r.status, 3, "%s: %s%s", ccs[i], r.out, r.err);
		cr_assert_str_empty(r.err, "%s: %s", ccs[i], r.err);
		const char *objs[] = { "prog", "liba.so", "libb.so" };
		for (unsigned k = 0; k < 3; k++) {
			char p[PATH_MAX];
			snprintf(p, sizeof p, "%s/%s", d, objs[k]);
			struct elf e;
			cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
			cr_assert(e.qbt_off && e.syminfo_off, "%s: %s not optimized", ccs[i], objs[k]);
			elf_free(&e);
		}
		char a[PATH_MAX], b[PATH_MAX];
		snprintf(a, sizeof a, "%s/r.o", d);
		snprintf(b, sizeof b, "%s/r.ref", d);
		cr_assert(same_file(a, b));
		shell_result_free(&r);
	}
	struct shell_result s = shell("cd %s && printf 'int main(void){return 0;}' | musl-gcc -B%s -static -x c -o st - && ./st",
			      make_tmpdir(NULL), w);
	cr_assert_eq(s.status, 0, "%s", s.err);
	cr_assert_str_empty(s.err, "static link: %s", s.err);
	shell_result_free(&s);
}

/* Random corruption of real files: linkopt either optimizes the file or
 * rejects it with one line and status 2; it never crashes or hangs. */
Test(linkopt, corrupted_files_never_crash, .timeout = 120)
{
	const char *srcs[] = { "m64bfd/prog", "g32bfd/liba.so", "g64mold/prog", "m32lld/libb.so" };
	char *d = make_tmpdir(NULL);
	srand(4242);
	for (int it = 0; it < 160; it++) {
		char src[PATH_MAX], p[PATH_MAX];
		snprintf(src, sizeof src, "%s/%s", LOT_DIR, srcs[it % 4]);
		size_t len;
		uint8_t *b = (uint8_t *)read_file(src, &len);
		cr_assert(b);
		size_t lim = it % 3 == 0 ? 1024 : len;
		for (int k = 0; k < 1 + it % 8; k++)
			b[(size_t)rand() % lim] = (uint8_t)rand();
		if (it % 5 == 0)
			len = (size_t)rand() % len;
		snprintf(p, sizeof p, "%s/m%d", d, it);
		FILE *f = fopen(p, "wb");
		fwrite(b, 1, len, f);
		fclose(f);
		free(b);
		struct shell_result r = shell("%s -O1 -o %s/out %s", lot_bin(), d, p);
		cr_assert(r.status == 0 || (r.status == 2 && count_lines(r.err) == 1),
			  "iteration %d (%s): status %d: %s", it, srcs[it % 4], r.status, r.err);
		shell_result_free(&r);
		r = shell("%s --dump %s", lot_bin(), p);
		cr_assert(r.status == 0 || r.status == 2, "dump of iteration %d: status %d", it, r.status);
		shell_result_free(&r);
	}
}

/* Issue 11: a section-name table of type SHT_NULL (or SHT_NOBITS) with an
 * offset far outside the file escaped the bounds check and linkopt died
 * of SIGSEGV. It must refuse with one line and status 2, and leave the
 * input as it was, written to another file or in place. */
Test(linkopt, section_name_table_not_in_the_file)
{
	const char *srcs[] = { "m64bfd/libb.so", "m32bfd/libb.so" };
	const uint32_t types[] = { SHT_NULL, SHT_NOBITS };
	char *d = make_tmpdir(NULL);
	for (int i = 0; i < 4; i++) {
		char src[PATH_MAX], p[PATH_MAX], ref[PATH_MAX];
		snprintf(src, sizeof src, "%s/%s", LOT_DIR, srcs[i % 2]);
		size_t len;
		uint8_t *b = (uint8_t *)read_file(src, &len);
		cr_assert(b);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, src), 0, "%s", e.err);
		unsigned k = e.eh.e_shstrndx;
		cr_assert(k && k < e.shnum);
		uint64_t at = e.eh.e_shoff + (uint64_t)k * e.eh.e_shentsize;
		Elf64_Shdr s = e.sh[k];
		elf_free(&e);
		s.sh_type = types[i / 2];
		s.sh_offset = 0x7f000000;
		s.sh_size = 0x1000;
		struct elf w = { .is64 = b[EI_CLASS] == ELFCLASS64 };
		elf_put_shdr(&w, &s, b + at);
		snprintf(p, sizeof p, "%s/shstr%d.so", d, i);
		snprintf(ref, sizeof ref, "%s/shstr%d.ref", d, i);
		for (int c = 0; c < 2; c++) {
			FILE *f = fopen(c ? ref : p, "wb");
			cr_assert(f && fwrite(b, 1, len, f) == len && !fclose(f));
		}
		free(b);
		struct shell_result r = shell("%s -o %s/out%d.so %s", lot_bin(), d, i, p);
		cr_expect(r.status == 2 && count_lines(r.err) == 1 && strstr(r.err, p),
			  "%s (type %u), -o: status %d: %s", srcs[i % 2], types[i / 2], r.status, r.err);
		shell_result_free(&r);
		r = shell("%s %s", lot_bin(), p);
		cr_expect(r.status == 2 && count_lines(r.err) == 1,
			  "%s (type %u), in place: status %d: %s", srcs[i % 2], types[i / 2], r.status, r.err);
		shell_result_free(&r);
		cr_expect(same_file(p, ref), "%s: input changed", srcs[i % 2]);
	}
}

/* Names of the files in dir, one a line, sorted; with sizes and inodes so
 * that a replaced or rewritten file shows. */
static char *dir_state(const char *dir)
{
	struct shell_result r = shell("cd %s && find . -type f -printf '%%p %%s %%i\\n' | sort && cat $(find . -type f | sort) | md5sum",
			      dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	free(r.err);
	return r.out;
}

/* A run over several files changes all of them or none: one bad input
 * among good ones leaves every file as it was (same content, same inode,
 * no temporary file left behind) and exits 2. */
Test(linkopt, several_files_all_or_nothing)
{
	const char *vs[] = { "m64bfd", "m32lld" };
	for (unsigned k = 0; k < 2; k++) {
		char *d = lot_copy_variant(vs[k]);
		struct shell_result r = shell("cd %s && printf 'not ELF\\n' > zz-notelf && head -c 900 libb.so > trunc.so", d);
		shell_result_free(&r);
		char *before = dir_state(d);
		const char *lists[] = { "prog liba.so libb.so zz-notelf", "trunc.so prog liba.so libb.so",
					"-O1 libb.so liba.so prog zz-notelf" };
		for (unsigned i = 0; i < 3; i++) {
			r = shell("cd %s && %s %s", d, lot_bin(), lists[i]);
			cr_assert_eq(r.status, 2, "%s: %s: status %d", vs[k], lists[i], r.status);
			cr_assert(strstr(r.err, "no file changed (3 optimized files discarded)"), "%s: %s", lists[i], r.err);
			char *after = dir_state(d);
			cr_assert_str_eq(after, before, "%s: %s changed files", vs[k], lists[i]);
			free(after);
			shell_result_free(&r);
		}
		/* the good files alone go through, together */
		r = shell("cd %s && %s prog liba.so libb.so && %s --check prog liba.so libb.so && ls -a | grep -c linkopt",
			   d, lot_bin(), lot_bin());
		cr_assert_eq(r.status, 1, "%s: %s", vs[k], r.err); /* grep -c found nothing */
		cr_assert_str_eq(r.out, "0\n");
		shell_result_free(&r);
		free(before);
	}
}

/* --root is all or nothing too: a damaged object in the image keeps every
 * other one from being rewritten. */
Test(linkopt, root_all_or_nothing)
{
	char *d = make_tmpdir(NULL), fix[PATH_MAX];
	cr_assert(realpath(LOT_DIR, fix));
	shell_ok(NULL, "cd %s && mkdir -p usr/bin usr/lib && cp %s/m64bfd/prog usr/bin/ && "
		 "cp %s/m64bfd/liba.so %s/m64bfd/libb.so usr/lib/ && head -c 1000 usr/lib/liba.so > usr/lib/libdamaged.so",
		 d, fix, fix, fix);
	char *before = dir_state(d);
	struct shell_result r = shell("%s --root %s", lot_bin(), d);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "libdamaged.so"), "%s", r.err);
	char *after = dir_state(d);
	cr_assert_str_eq(after, before);
	free(after);
	shell_result_free(&r);
	shell_ok(NULL, "rm %s/usr/lib/libdamaged.so && %s --root %s && %s --check --root %s", d, lot_bin(), d, lot_bin(), d);
	free(before);
}

/* A program of the image that cannot be loaded (a library missing) is
 * named once, before anything is optimized for it. */
Test(linkopt, root_program_that_cannot_be_loaded)
{
	char *d = make_tmpdir(NULL), fix[PATH_MAX];
	cr_assert(realpath(LOT_DIR, fix));
	shell_ok(NULL, "cd %s && mkdir -p usr/bin usr/lib && cp %s/m64bfd/prog usr/bin/ && cp %s/m64bfd/liba.so usr/lib/",
		 d, fix, fix);
	char *before = dir_state(d);
	struct shell_result r = shell("%s --root %s", lot_bin(), d);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
	cr_assert(strstr(r.err, "usr/bin/prog: cannot be loaded: needed library libb.so not found"), "%s", r.err);
	shell_result_free(&r);
	char *after = dir_state(d);
	cr_assert_str_eq(after, before);
	free(after);
	free(before);
}

/* The last step, replacing the inputs, can fail too (here: an immutable
 * file cannot be linked or replaced): every input stays as it was. */
Test(linkopt, failed_replacement_changes_nothing)
{
	char *d = lot_copy_variant("m64bfd");
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/liba.so", d);
	struct shell_result r = shell("chattr +i %s", p);
	if (r.status)
		cr_skip_test("chattr +i not possible here (needs root and ext2/3/4, xfs or btrfs): %s", r.err);
	shell_result_free(&r);
	char *before = dir_state(d);
	r = shell("cd %s && %s prog liba.so libb.so", d, lot_bin());
	struct shell_result u = shell("chattr -i %s", p);
	shell_result_free(&u);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert_eq(count_lines(r.err), 1, "%s", r.err);
	cr_assert(strstr(r.err, "liba.so") && strstr(r.err, "no file changed"), "%s", r.err);
	char *after = dir_state(d);
	cr_assert_str_eq(after, before);
	free(after);
	free(before);
	shell_result_free(&r);
}

/* Without section headers linkopt cannot tell what follows the program
 * header table, so the table moves into the new segment (the fallback):
 * the program still runs, natively, with the same output. */
Test(linkopt, no_section_headers_fallback)
{
	char *d = lot_copy_variant("m64bfd");
	struct shell_result r = shell("cd %s && ./prog x y > ref.out; cp prog noshdr && "
			      "printf '\\0\\0\\0\\0\\0\\0\\0\\0' | dd of=noshdr bs=1 seek=40 conv=notrunc status=none && "
			      "printf '\\0\\0\\0\\0' | dd of=noshdr bs=1 seek=60 conv=notrunc status=none && "
			      "%s noshdr && ./noshdr x y > new.out; echo $? && cmp ref.out new.out", d, lot_bin());
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_assert_str_eq(r.out, "3\n", "%s", r.err);
	shell_result_free(&r);
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/noshdr", d);
	struct elf e;
	cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
	cr_assert(e.qbt_off && e.syminfo_off && !e.sh);
	cr_assert_neq(e.eh.e_phoff, 64, "the table was expected to move");
	elf_free(&e);
}

/* An application of SET_N libraries (library i needs i-1 and i-2 and
 * references their functions, by call and from a table; a weak vague
 * function defined in every library; a function defined in every fourth
 * library and referenced from the next) and a plugin the program dlopens
 * (needing library 3, and taking a function of library 5 from its host),
 * built with musl-gcc in dir. */
#define SET_N 12
static void write_set(const char *dir)
{
	char p[PATH_MAX + 32];
	for (int i = 0; i < SET_N; i++) {
		snprintf(p, sizeof p, "%s/q%d.c", dir, i);
		FILE *f = fopen(p, "w");
		cr_assert_not_null(f);
		fprintf(f, "__attribute__((weak)) int vague_w(int x) { return x + %d; }\n", i);
		for (int k = 0; k < 20; k++)
			fprintf(f, "int f_%d_%d(int x) { return x * %d + %d; }\n", i, k, i % 7 + 2, k);
		if (i % 4 == 1)
			fprintf(f, "int dup_fn(int x) { return x - %d; }\n", i);
		for (int d = i - 2; d < i; d++)
			for (int k = 0; d >= 0 && k < 20; k++)
				fprintf(f, "int f_%d_%d(int);\n", d, k);
		if (i % 4 == 2)
			fprintf(f, "int dup_fn(int);\n");
		fprintf(f, "typedef int (*fn)(int);\nstatic fn const tab[] = {\n");
		for (int k = 0; i >= 1 && k < 20; k += 2)
			fprintf(f, "\tf_%d_%d,\n", i - 1, k);
		fprintf(f, "\tvague_w, 0 };\nint entry_%d(void)\n{\n\tint s = 0;\n", i);
		fprintf(f, "\tfor (int k = 0; tab[k]; k++) s = s * 3 + tab[k](k);\n");
		for (int k = 1; i >= 2 && k < 20; k += 2)
			fprintf(f, "\ts += f_%d_%d(s);\n", i - 2, k);
		if (i % 4 == 2)
			fprintf(f, "\ts += dup_fn(s);\n");
		fprintf(f, "\treturn s;\n}\n");
		fclose(f);
	}
	snprintf(p, sizeof p, "%s/plug.c", dir);
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f);
	fprintf(f, "int f_3_1(int);\nint f_5_3(int);\nint plug_entry(void) { return f_3_1(1) + f_5_3(2); }\n");
	fclose(f);
	snprintf(p, sizeof p, "%s/main.c", dir);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fprintf(f, "#include <dlfcn.h>\n#include <stdio.h>\n");
	for (int i = 0; i < SET_N; i++)
		fprintf(f, "int entry_%d(void);\n", i);
	fprintf(f, "int main(void)\n{\n\tunsigned s = 0;\n");
	for (int i = 0; i < SET_N; i++)
		fprintf(f, "\ts = s * 31u + (unsigned)entry_%d();\n", i);
	fprintf(f, "\tvoid *h = dlopen(\"libplug.so\", RTLD_NOW);\n"
		   "\tint (*pe)(void) = h ? (int (*)(void))dlsym(h, \"plug_entry\") : 0;\n"
		   "\tprintf(\"%%u %%d\\n\", s, pe ? pe() : -1);\n\treturn 0;\n}\n");
	fclose(f);
	char libs[4096] = "";
	for (int i = 0; i < SET_N; i++) {
		char deps[64] = "", one[32];
		for (int d = i - 2; d < i; d++)
			if (d >= 0) {
				snprintf(one, sizeof one, " -lq%d", d);
				strcat(deps, one);
			}
		snprintf(one, sizeof one, " -lq%d", i);
		strcat(libs, one);
		shell_ok("build a library of the set",
			 "cd %s && musl-gcc -shared -fPIC -O1 -o libq%d.so q%d.c -L.%s -Wl,-soname,libq%d.so "
			 "-Wl,-rpath,'$ORIGIN'", dir, i, i, deps, i);
	}
	shell_ok("build the plugin", "cd %s && musl-gcc -shared -fPIC -O1 -o libplug.so plug.c -L. -lq3 "
		 "-Wl,-soname,libplug.so -Wl,-rpath,'$ORIGIN'", dir);
	shell_ok("build the program", "cd %s && musl-gcc -O1 -o app main.c -L.%s -Wl,-rpath,'$ORIGIN'",
		 dir, libs);
}

/* linkopt keeps what it read for the whole run (every object read once,
 * the program's load searched once, one index of the definitions), and a
 * file it wrote earlier in the run is read as written. Optimizing the set
 * in one run (the files given in reverse order) must give the same bytes
 * as a run per file, in dependency order, where nothing is kept between
 * runs. */
Test(linkopt, one_run_equals_a_run_per_file, .timeout = 120)
{
	char *d = make_tmpdir(NULL), p[PATH_MAX], q[PATH_MAX];
	shell_ok(NULL, "mkdir %s/src", d);
	snprintf(p, sizeof p, "%s/src", d);
	write_set(p);
	shell_ok(NULL, "cd %s && mkdir one each && cp src/*.so src/app one/ && cp src/*.so src/app each/", d);
	char files[8192] = "";
	for (int i = SET_N - 1; i >= 0; i--) {
		char one[64];
		snprintf(one, sizeof one, " libq%d.so", i);
		strcat(files, one);
	}
	shell_ok("one run", "cd %s/one && %s libplug.so%s app", d, lot_bin(), files);
	for (int i = 0; i < SET_N; i++)
		shell_ok("a run per file", "cd %s/each && %s --app app libq%d.so", d, lot_bin(), i);
	shell_ok("a run per file", "cd %s/each && %s --app app libplug.so && %s app", d, lot_bin(), lot_bin());
	for (int i = -1; i <= SET_N; i++) {
		char name[32];
		snprintf(name, sizeof name, i < 0 ? "app" : i == SET_N ? "libplug.so" : "libq%d.so", i);
		snprintf(p, sizeof p, "%s/one/%s", d, name);
		snprintf(q, sizeof q, "%s/each/%s", d, name);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
		cr_assert(e.qbt_off && e.syminfo_off, "%s not optimized", p);
		elf_free(&e);
		cr_assert(same_file(p, q), "%s: one run and a run per file differ", name);
	}
	/* the bindings are the ones expected, not merely the same */
	struct shell_result r = shell("cd %s/one && %s --dump libq5.so", d, lot_bin());
	cr_assert_str_eq(bound_of(r.out, "f_4_0"), "libq4.so", "%s", r.out);
	cr_assert_str_eq(bound_of(r.out, "f_3_1"), "libq3.so", "%s", r.out);
	shell_result_free(&r);
	/* defined by libq5.so and by libq1.so, which libq6.so also loads */
	r = shell("cd %s/one && %s --dump libq6.so", d, lot_bin());
	cr_assert_str_eq(bound_of(r.out, "dup_fn"), "<multi>", "%s", r.out);
	shell_result_free(&r);
	r = shell("cd %s/one && %s --dump libplug.so", d, lot_bin());
	cr_assert_str_eq(bound_of(r.out, "f_3_1"), "libq3.so", "%s", r.out);
	/* from its host's libq5.so (the parent, appview.c) */
	cr_assert_str_eq(bound_of(r.out, "f_5_3"), "<parent>", "%s", r.out);
	shell_result_free(&r);
	shell_ok(NULL, "rm -rf %s", d);
	free(d);
}

/* A library rewritten in place (the same file, other contents) between
 * two resolutions in one process is read again, not taken from what the
 * first one read. */
Test(linkopt, a_library_rewritten_in_place_is_read_again)
{
	char *d = lot_copy_variant("m64bfd"), p[PATH_MAX], b2[PATH_MAX];
	snprintf(p, sizeof p, "%s/prog", d);
	snprintf(b2, sizeof b2, "%s/libb2.so", d);
	for (int round = 0; round < 2; round++) {
		if (round) {
			/* past the file system's time stamp granularity */
			struct timespec ts = { 0, 20 * 1000 * 1000 };
			nanosleep(&ts, NULL);
			shell_ok(NULL, "cat %s/libb2.so > %s/libb.so", d, d);
		}
		struct elf prog;
		struct search_opts so;
		struct closure c;
		char err[512];
		memset(&so, 0, sizeof so);
		cr_assert_eq(elf_load_file(&prog, p), 0, "%s", prog.err);
		cr_assert_eq(closure_build(&prog, &so, &c, err, sizeof err), 0, "%s", err);
		const struct lib *b = NULL;
		for (unsigned i = 1; i < c.n; i++)
			if (strstr(c.libs[i].path, "/libb.so"))
				b = &c.libs[i];
		cr_assert_not_null(b, "libb.so not in the closure");
		size_t len;
		char *want = must_read_file(round ? b2 : b->path, &len);
		cr_assert(b->e.size == len && !memcmp(b->e.buf, want, len), "round %d: libb.so as read before", round);
		free(want);
		closure_free(&c);
		elf_free(&prog);
	}
	free(d);
}
