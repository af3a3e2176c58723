/* Direct binding, precomputed hashes and the symbol cache on real musl
 * programs optimized by linkopt: the same output as under musl's loader
 * (the plain build), and statistics proving the fast path was taken. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpcommon.h"

#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A line of s containing both a and b. */
static int has_line(const char *s, const char *a, const char *b)
{
	for (const char *line = s; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *pa = strstr(line, a), *pb = strstr(line, b);
		if (pa && pb && pa < line + len && pb < line + len)
			return 1;
		line = end ? end + 1 : NULL;
	}
	return 0;
}

/* si_flags linkopt recorded for reference NAME of the optimized FILE. */
static unsigned dump_flags(const char *file, const char *name)
{
	const char *argv[] = {fp_linkopt(), "--dump", fp_fixture(file), NULL};
	char *out = fp_command_output(argv);
	char pat[128];
	snprintf(pat, sizeof pat, " %s\n", name);
	char *p = strstr(out, pat);
	cr_assert(p, "no syminfo entry for %s in the dump of %s:\n%s", name, file, out);
	char *line = p;
	while (line > out && line[-1] != '\n')
		line--;
	char *flags = strstr(line, " 0x");
	cr_assert(flags && flags < p, "no flags for %s in: %.*s", name, (int)(p - line), line);
	unsigned v = (unsigned)strtoul(flags + 1, NULL, 16);
	free(out);
	return v;
}

Test(fastpath, executable_interposes_on_library)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_exe", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_exe", .libpath = "opt"};
	struct run_result r;
	cr_assert_eq(dump_flags("interpose/opt/libuser.so", "greet"), 0x0001,
		     "libuser's greet is not bound directly to libcore: the test would prove nothing");
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "interposer_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "precomputed_hashes"), 0);
	run_result_free(&r);
}

Test(fastpath, ld_preload_interposes_on_library)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_plain", .libpath = ".",
			     .env = ENV("LD_PRELOAD=./libpre.so")};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain", .libpath = "opt",
			    .env = ENV("LD_PRELOAD=./opt/libpre.so")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "interposer_hits"), 0);
	run_result_free(&r);
}

Test(fastpath, no_interposer_binds_directly)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_plain", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain", .libpath = "opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(has_line(r.err, "libuser.so: greet -> ", "libcore.so"),
		  "greet of libuser was not bound directly to libcore:\n%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	run_result_free(&r);
}

Test(fastpath, library_sees_executables_copy)
{
	const char *argv[] = {"/usr/bin/readelf", "-rW", fp_fixture("copyreloc/opt/prog"), NULL};
	char *rel = fp_command_output(argv);
	cr_assert(has_line(rel, "R_X86_64_COPY", "cr_table"), "no copy relocation for cr_table:\n%s", rel);
	free(rel);
	cr_assert_eq(dump_flags("copyreloc/opt/libcruser.so", "cr_table"), 0x0001,
		     "libcruser's cr_table is not bound directly to libcr");
	struct fp_run ref = {.dir = "copyreloc", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "copyreloc", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "interposer_hits"), 0,
		     "the executable's copy was not found by the interposer check");
	run_result_free(&r);
}

Test(fastpath, weak_and_vague_definitions_in_several_libraries)
{
	cr_assert_eq(dump_flags("weak/opt/libw3.so", "vague"), 0x1000);
	cr_assert_eq(dump_flags("weak/opt/libw3.so", "wdata"), 0x1000);
	cr_assert_eq(dump_flags("weak/opt/libw3.so", "_ZTS3Foo"), 0x1000);
	struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "precomputed_hashes"), 0);
	run_result_free(&r);
}

Test(fastpath, symbol_defined_in_two_needed_libraries)
{
	cr_assert_eq(dump_flags("dup/opt/libd12.so", "dup_fn"), 0x2000);
	cr_assert_eq(dump_flags("dup/opt/libd12.so", "dup_data"), 0x2000);
	struct fp_run ref = {.dir = "dup", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "dup", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	run_result_free(&r);
}

/* libd2only needs libd2 alone, so linkopt binds its dup_fn to libd2 while
 * the global scope finds libd1 first: the one case where direct binding
 * by design differs from the standard lookup. Verify mode must report it
 * and keep the standard binding. */
Test(fastpath, verify_mode_reports_and_undoes_a_difference)
{
	cr_assert_eq(dump_flags("dup/opt/libd2only.so", "dup_fn"), 0x0001);
	struct fp_run ref = {.dir = "dup", .prog = "prog_d2only", .libpath = "."};
	struct fp_run qb = {.dir = "dup", .prog = "opt/prog_d2only", .libpath = "opt",
			    .env = ENV("LD_DIRECT_VERIFY=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 2,
		     "dup_fn and dup_data of libd2only differ, and only they:\n%s", r.err);
	cr_expect(has_line(r.err, "verify: ", "libd2only.so: dup_fn: direct binding gives ") &&
		  has_line(r.err, "libd2only.so: dup_fn: direct binding gives ", "libd2.so, standard lookup gives ") &&
		  has_line(r.err, "libd2only.so: dup_fn: ", "standard lookup gives opt/libd1.so"),
		  "no verify report naming the object, the symbol and both definitions:\n%s", r.err);
	run_result_free(&r);

	/* Without verification, direct binding's documented semantics hold. */
	struct fp_run direct = {.dir = "dup", .prog = "opt/prog_d2only", .libpath = "opt"};
	fp_exec(&r, fp_loader(), &direct);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect(strstr(r.out, "d12: dup_fn=libd2 dup_data=2\n"), "libd2only not bound to libd2:\n%s", r.out);
	run_result_free(&r);
}

Test(fastpath, stale_table_after_symbol_moved)
{
	cr_assert_eq(dump_flags("stale/opt/prog", "moved_fn"), 0x0001);
	struct fp_run ref = {.dir = "stale", .prog = "prog", .libpath = "new:."};
	struct fp_run qb = {.dir = "stale", .prog = "opt/prog", .libpath = "new:opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_geq(fp_stat(r.err, "start-up", "direct_misses"), 2,
		      "moved_fn of prog and libsu must miss in libs1 and fall back:\n%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	run_result_free(&r);
}

static void dlopen_case(const char *mode)
{
	const char *args[] = {mode, NULL};
	struct fp_run ref = {.dir = "dlopen", .prog = "prog", .libpath = ".", .args = args};
	struct fp_run qb = {.dir = "dlopen", .prog = "opt/prog", .libpath = "opt", .args = args};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "dlopen", "direct_hits"), fp_stat(r.err, "start-up", "direct_hits"),
		     "no direct binding in the dlopened libraries:\n%s", r.err);
	run_result_free(&r);
}

Test(fastpath, dlopen_rtld_local)
{
	dlopen_case("local");
}

Test(fastpath, dlopen_rtld_global)
{
	dlopen_case("global");
}

Test(fastpath, tls_across_optimized_libraries)
{
	cr_assert_eq(dump_flags("tls/opt/libt2.so", "t1_var"), 0x0001);
	cr_assert_eq(dump_flags("tls/opt/libt3.so", "t1_buf"), 0x0001);
	struct fp_run ref = {.dir = "tls", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "tls", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(has_line(r.err, "libt2.so: t1_var -> ", "libt1.so"), "%s", r.err);
	cr_expect(has_line(r.err, "libt3.so: t1_buf -> ", "libt1.so"), "%s", r.err);
	run_result_free(&r);
}
