/* linkopt's output stays editable by the tools people use on binaries:
 * the program header table stays where the linker put it, and files
 * optimized by linkopt survive patchelf --set-interpreter (twice),
 * --set-rpath and strip, then still run under the stock loader and
 * quickbind with the same output as the original. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elffile.h"
#include "linkopt_fixture.h"

#define VARIANT_TEST(name) LOT_VARIANT_TEST(linkopt_edit, name, .timeout = 120)

static int is_musl(const char *v) { return v[0] == 'm'; }
static int is32(const char *v) { return v[1] == '3'; }

/* The loader the variant's programs name, and what it needs to find libc. */
static const char *stock_loader(const char *v)
{
	if (is_musl(v))
		return is32(v) ? "/lib/ld-musl-i386.so.1" : "/lib/ld-musl-x86_64.so.1";
	return is32(v) ? "/usr/i686-linux-gnu/lib/ld-linux.so.2" : "/lib64/ld-linux-x86-64.so.2";
}

static const char *run_env(const char *v)
{
	return !is_musl(v) && is32(v) ? "LD_LIBRARY_PATH=/usr/i686-linux-gnu/lib" : "";
}

static const char *quickbind(const char *v)
{
	static char p[PATH_MAX];
	char rel[PATH_MAX];
	snprintf(rel, sizeof rel, "%s/ld-quickbind-%s.so.1", QB_LIB_DIR, is32(v) ? "i386" : "x86_64");
	if (!realpath(rel, p))
		cr_assert_fail("cannot find %s", rel);
	return p;
}

/* What the unoptimized program prints, run the way the fixture tests do. */
static struct shell_result reference(const char *v)
{
	char *d = lot_copy_variant(v);
	struct shell_result r = shell("%s %s/prog x y", lot_loader_prefix(v), d);
	cr_assert_eq(r.status, 3, "%s: original program: status %d %s", v, r.status, r.err);
	return r;
}

static char *optimized(const char *v)
{
	char *d = lot_copy_variant(v);
	struct shell_result r = shell("%s %s/prog %s/liba.so %s/libb.so", lot_bin(), d, d, d);
	cr_assert_eq(r.status, 0, "%s: linkopt failed: %s", v, r.err);
	shell_result_free(&r);
	return d;
}

/* Runs dir/prog directly (the kernel, or qemu-user for i386, maps it and
 * starts the loader its PT_INTERP names) and compares with ref. */
static void runs_like(const char *v, const char *dir, const char *prog, const struct shell_result *ref, const char *what)
{
	struct shell_result r = shell("cd %s && %s ./%s x y", dir, run_env(v), prog);
	cr_assert_eq(r.status, ref->status, "%s %s: status %d: %s", v, what, r.status, r.err);
	cr_assert_str_eq(r.out, ref->out, "%s %s", v, what);
	shell_result_free(&r);
}

/* Under quickbind, every direct binding checked against the standard
 * lookup: the tables of the edited files must not give a wrong answer. */
static void quickbind_agrees(const char *v, const char *dir, const char *prog, const struct shell_result *ref, const char *what)
{
	struct shell_result r = shell("cd %s && LD_DIRECT_VERIFY=1 LD_DEBUG=statistics ./%s x y", dir, prog);
	cr_assert_eq(r.status, ref->status, "%s %s: status %d: %s", v, what, r.status, r.err);
	cr_assert_str_eq(r.out, ref->out, "%s %s", v, what);
	cr_assert(strstr(r.err, "verify_differences=0"), "%s %s: %s", v, what, r.err);
	shell_result_free(&r);
}

VARIANT_TEST(program_headers_stay_in_place)
{
	const char *v = lot_variants[*vi];
	char *orig = lot_copy_variant(v);
	char *d = optimized(v);
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX], q[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", orig, lot_files[i]);
		snprintf(q, sizeof q, "%s/%s", d, lot_files[i]);
		struct elf a, b;
		cr_assert_eq(elf_load_file(&a, p), 0, "%s", a.err);
		cr_assert_eq(elf_load_file(&b, q), 0, "%s", b.err);
		cr_assert(b.qbt_off, "%s: not optimized", q);
		cr_assert_eq(b.eh.e_phoff, a.eh.e_phoff, "%s: program headers moved", q);
		const Elf64_Phdr *pa = NULL, *pb = NULL, *first = NULL;
		for (unsigned k = 0; k < a.phnum; k++)
			if (a.ph[k].p_type == PT_PHDR)
				pa = &a.ph[k];
		for (unsigned k = 0; k < b.phnum; k++) {
			if (b.ph[k].p_type == PT_PHDR)
				pb = &b.ph[k];
			if (b.ph[k].p_type == PT_LOAD && !first)
				first = &b.ph[k];
		}
		cr_assert_eq(!pa, !pb, "%s: PT_PHDR appeared or vanished", q);
		if (pb) {
			cr_assert_eq(pb->p_offset, pa->p_offset, "%s", q);
			cr_assert_eq(pb->p_vaddr, pa->p_vaddr, "%s", q);
			cr_assert_eq(pb->p_filesz, (uint64_t)b.phnum * elf_phentsize(&b), "%s", q);
		}
		/* the table is mapped by the first segment, at the address its
		 * offset implies (what the kernel and qemu-user compute) */
		cr_assert(first && first->p_offset <= b.eh.e_phoff &&
			  b.eh.e_phoff + (uint64_t)b.phnum * elf_phentsize(&b) <= first->p_offset + first->p_filesz,
			  "%s: program headers outside the first segment", q);
		elf_free(&a);
		elf_free(&b);
	}
}

VARIANT_TEST(survives_patchelf_set_interpreter_twice)
{
	const char *v = lot_variants[*vi];
	struct shell_result ref = reference(v);
	char *d = optimized(v);
	/* longer paths than the linker wrote: patchelf has to move .interp */
	shell_ok(v, "cd %s && ln -s %s %s/stock-loader-under-a-much-longer-name.so.1 && "
		 "ln -s %s %s/stock-loader-under-an-even-longer-name-than-before.so.1 && "
		 "cp -p prog p1 && patchelf --set-interpreter %s/stock-loader-under-a-much-longer-name.so.1 p1",
		 d, stock_loader(v), d, stock_loader(v), d, d);
	runs_like(v, d, "p1", &ref, "after one patchelf");
	shell_ok(v, "cd %s && patchelf --set-interpreter %s/stock-loader-under-an-even-longer-name-than-before.so.1 p1", d, d);
	runs_like(v, d, "p1", &ref, "after two patchelf calls");
	if (is_musl(v)) {
		shell_ok(v, "cd %s && ln -s %s quickbind-loader-under-a-long-name.so.1 && cp -p prog p2 && "
			 "patchelf --set-interpreter %s/quickbind-loader-under-a-long-name.so.1 p2",
			 d, quickbind(v), d);
		quickbind_agrees(v, d, "p2", &ref, "quickbind through PT_INTERP");
		shell_ok(v, "cd %s && patchelf --set-interpreter %s p2", d, quickbind(v));
		quickbind_agrees(v, d, "p2", &ref, "quickbind after a second patchelf");
	}
	shell_result_free(&ref);
}

/* libb.so has no run path: patchelf inserts DT_RUNPATH at the head of
 * .dynamic, so every DT_NEEDED entry changes index. prog's run path is
 * replaced by a longer one (new .dynstr). */
VARIANT_TEST(survives_patchelf_set_rpath)
{
	const char *v = lot_variants[*vi];
	struct shell_result ref = reference(v);
	char *d = optimized(v);
	shell_ok(v, "cd %s && patchelf --set-rpath /nonexistent/directory/for/libb libb.so && "
		 "patchelf --set-rpath '$ORIGIN:/nonexistent/directory/for/prog' prog", d);
	runs_like(v, d, "prog", &ref, "after --set-rpath");
	if (is_musl(v)) {
		shell_ok(v, "cd %s && cp -p prog q && patchelf --set-interpreter %s q", d, quickbind(v));
		quickbind_agrees(v, d, "q", &ref, "quickbind after --set-rpath");
	}
	/* optimizing the edited files again brings the tables up to date */
	shell_ok(v, "cd %s && %s libb.so liba.so prog && %s --check prog liba.so libb.so", d, lot_bin(), lot_bin());
	runs_like(v, d, "prog", &ref, "re-optimized after --set-rpath");
	shell_result_free(&ref);
}

VARIANT_TEST(survives_strip)
{
	const char *v = lot_variants[*vi];
	struct shell_result ref = reference(v);
	char *d = optimized(v);
	shell_ok(v, "cd %s && strip prog liba.so libb.so", d);
	runs_like(v, d, "prog", &ref, "after strip");
	/* the tables are still there and still current */
	shell_ok(v, "cd %s && %s --check prog liba.so libb.so", d, lot_bin());
	for (unsigned i = 0; i < 3; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", d, lot_files[i]);
		struct elf e;
		cr_assert_eq(elf_load_file(&e, p), 0, "%s", e.err);
		cr_assert(e.qbt_off && e.syminfo_off, "%s: strip lost the tables", p);
		elf_free(&e);
	}
	if (is_musl(v)) {
		shell_ok(v, "cd %s && patchelf --set-interpreter %s prog", d, quickbind(v));
		quickbind_agrees(v, d, "prog", &ref, "quickbind after strip");
	}
	shell_result_free(&ref);
}
