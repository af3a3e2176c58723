/* Direct binding, precomputed hashes and the symbol cache on real musl
 * programs optimized by linkopt: the same output as under musl's loader
 * (the plain build), and statistics proving the fast path was taken.
 * Compiled once per architecture (see fpcommon.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpcommon.h"
#include "qbtable.h"

Test(FP_SUITE(fastpath), fixtures_are_optimized_files_of_the_architecture)
{
	static const char *const files[] = {"interpose/opt/prog_exe", "interpose/opt/libuser.so",
		"tls/opt/libt3.so", "app/opt/libg0.so", NULL};
	for (const char *const *f = files; *f; f++) {
		fp_expect_arch(*f);
		const char *argv[] = {"/usr/bin/readelf", "-dW", lt_fixture_path(*f), NULL};
		char *dyn = command_output(argv);
		/* readelf names DT_QB_TABLE by its value, 8 or 16 digits wide */
		char qbtag[32];
		snprintf(qbtag, sizeof qbtag, "%x)", DT_QB_TABLE);
		cr_expect(strstr(dyn, "(SYMINFO)") && strstr(dyn, qbtag),
			  "%s lacks DT_SYMINFO or the quickbind table:\n%s", *f, dyn);
		free(dyn);
	}
}

Test(FP_SUITE(fastpath), executable_interposes_on_library)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_exe", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_exe", .libpath = "opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	cr_assert_eq(dump_flags("interpose/opt/libuser.so", "greet"), 0x0001,
		     "libuser's greet is not bound directly to libcore: the test would prove nothing");
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, "greet=executable core_greet=executable"), "%s", r.out);
	cr_expect(has_line(r.err, "libuser.so: greet: interposed by ", "opt/prog_exe"),
		  "the executable's greet was not found by the interposer check:\n%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "interposer_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "precomputed_hashes"), 0);
	run_result_free(&r);
}

Test(FP_SUITE(fastpath), ld_preload_interposes_on_library)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_plain", .libpath = ".",
			     .env = ENV("LD_PRELOAD=./libpre.so")};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain", .libpath = "opt",
			    .env = ENV("LD_PRELOAD=./opt/libpre.so")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, "greet=preload"), "libpre.so did not interpose:\n%s", r.out);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "interposer_hits"), 0);
	run_result_free(&r);
}

Test(FP_SUITE(fastpath), no_interposer_binds_directly)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_plain", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain", .libpath = "opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(has_line(r.err, "libuser.so: greet -> ", "libcore.so"),
		  "greet of libuser was not bound directly to libcore:\n%s", r.err);
	cr_expect(has_line(r.err, "libuser.so: core_value -> ", "libcore.so"),
		  "core_value (GLOB_DAT and absolute relocations) was not bound directly:\n%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_eq(fp_stat(r.err, "start-up", "interposer_hits"), 0);
	run_result_free(&r);
}

Test(FP_SUITE(fastpath), library_sees_executables_copy)
{
	const char *argv[] = {"/usr/bin/readelf", "-rW", lt_fixture_path("copyreloc/opt/prog"), NULL};
	char *rel = command_output(argv);
	cr_assert(has_line(rel, FP_R_COPY, "cr_table"), "no copy relocation for cr_table:\n%s", rel);
	free(rel);
	cr_assert_eq(dump_flags("copyreloc/opt/libcruser.so", "cr_table"), 0x0001,
		     "libcruser's cr_table is not bound directly to libcr");
	struct fp_run ref = {.dir = "copyreloc", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "copyreloc", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, "same address: lib=1 user=1 data=1"), "%s", r.out);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "interposer_hits"), 0,
		     "the executable's copy was not found by the interposer check");
	run_result_free(&r);
}

Test(FP_SUITE(fastpath), weak_and_vague_definitions_in_several_libraries)
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

/* The vague references of libw3 (and libw2's own call of vague) carry
 * the definer the program's load finds them in (libw1, docs/FORMAT.md
 * 2.4), and are bound there without their names being read: the same
 * output as musl's loader, and verify mode finds no difference. */
Test(FP_SUITE(fastpath), vague_references_bound_through_their_scope_definer)
{
	const char *argv[] = {fp_linkopt(), "--dump", lt_fixture_path("weak/opt/libw3.so"), NULL};
	char *dump = command_output(argv);
	cr_assert(strstr(dump, "<scope definer>"), "libw3 records no scope definer:\n%s", dump);
	free(dump);
	struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, "w3: vague=w1-weak wdata=1 typeinfo=w1-typeinfo"), "%s", r.out);
	long n = fp_stat(r.err, "start-up", "scope_definers");
	cr_expect_geq(n, 3, "libw3's two references and libw2's call of vague:\n%s", r.err);
	run_result_free(&r);
	/* the walk (no global table) and the global table's probe */
	const char *const *const envs[] = {
		ENV("LD_DIRECT_VERIFY=1", "LD_GLOBALTAB=0"), ENV("LD_DIRECT_VERIFY=1", "LD_GLOBALTAB=1")};
	for (unsigned k = 0; k < 2; k++) {
		struct fp_run ver = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .env = envs[k]};
		fp_expect_same(&ref, &ver, &r);
		cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s: %s", envs[k][1], r.err);
		cr_expect_geq(fp_stat(r.err, "start-up", "scope_definers"), 3, "%s: %s", envs[k][1], r.err);
		run_result_free(&r);
	}
}

/* libw2's and libw3's references through their scope definers (docs/
 * FORMAT.md 2.4) are bound by walks of the scope that read no name, with
 * the standard lookup's answers (verify mode). libw1 replaced by the
 * library as built: its recorded definitions are not trusted. */
Test(FP_SUITE(fastpath), scope_definers_bound_by_the_walk)
{
	struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_DIRECT_VERIFY=1", "LD_GLOBALTAB=0")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_geq(fp_stat(r.err, "start-up", "scope_definers"), 3, "%s", r.err);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	run_result_free(&r);
	struct fp_run other = {.dir = "weak", .prog = "opt/prog", .libpath = "orig:opt"};
	fp_expect_same(&ref, &other, &r);
	cr_expect_eq(fp_stat(r.err, "start-up", "scope_definers"), 0, "%s", r.err);
	run_result_free(&r);
}

/* A preloaded library comes before every definer and must rule each
 * name out itself. libwfp's bloom filter lets the vague names through
 * and its hash chains hold none of them: the references still bind at
 * their definers, with the standard lookup's answers. */
Test(FP_SUITE(fastpath), scope_definers_with_a_preload_that_defines_none_of_the_names)
{
	struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = ".",
			     .env = ENV("LD_PRELOAD=./libwfp.so")};
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_PRELOAD=./libwfp.so", "LD_DIRECT_VERIFY=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, "w3: vague=w1-weak wdata=1 typeinfo=w1-typeinfo"), "%s", r.out);
	cr_expect_geq(fp_stat(r.err, "start-up", "scope_definers"), 2, "%s", r.err);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	run_result_free(&r);
}

/* The libraries optimized for prog, prog_w2 (libw2 ahead of libw1, where
 * vague is strong) optimized alone afterwards: libw3's definer of vague
 * (libw1) is not prog_w2's answer; the walk to libw1 meets libw2's
 * definitions and the standard lookup answers, as under musl's loader. */
Test(FP_SUITE(fastpath), definers_recorded_for_another_load_give_way_to_the_lookup)
{
	struct fp_run ref = {.dir = "weak", .prog = "prog_w2", .libpath = "."};
	struct fp_run qb = {.dir = "weak", .prog = "w2/prog_w2", .libpath = "w2",
			    .env = ENV("LD_DIRECT_VERIFY=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, "w3: vague=w2-strong"), "%s", r.out);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	run_result_free(&r);
}

/* prog_fp loads libwfp ahead of libw1: its bloom filter lets the three
 * vague names through (libwfp.c), its hash chains hold none of them. The
 * walks to the definer rule it out by its chains, so the references are
 * bound through their definer all the same, with the standard lookup's
 * answers (verify mode), walk or global table. */
Test(FP_SUITE(fastpath), bloom_filter_false_positive_ruled_out_by_the_hash_chain)
{
	struct fp_run ref = {.dir = "weak", .prog = "prog_fp", .libpath = "."};
	const char *const *const envs[] = {ENV("LD_GLOBALTAB=0"), ENV("LD_GLOBALTAB=0", "LD_DIRECT_VERIFY=1"),
					   ENV("LD_GLOBALTAB=1", "LD_DIRECT_VERIFY=1")};
	for (unsigned k = 0; k < 3; k++) {
		struct fp_run qb = {.dir = "weak", .prog = "prog_fp", .libpath = "opt:.", .env = envs[k]};
		struct run_result r;
		fp_expect_same(&ref, &qb, &r);
		cr_expect(strstr(r.out, "w3: vague=w1-weak wdata=1 typeinfo=w1-typeinfo"), "%s", r.out);
		/* libw3's vague and _ZTS3Foo (its wdata is the program's copy) */
		cr_expect_geq(fp_stat(r.err, "start-up", "scope_definers"), 2,
			      "%s: libwfp's filter stopped the walks to libw1:\n%s", envs[k][0], r.err);
		if (k)
			cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
		run_result_free(&r);
	}
}

/* A preloaded library defines the vague names ahead of the definer
 * linkopt recorded: its bloom filter sends those references to the
 * standard lookup, which finds the preload, as musl's loader does. */
Test(FP_SUITE(fastpath), preloaded_definition_overrides_the_scope_definer)
{
	struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = ".",
			     .env = ENV("LD_PRELOAD=./libwpre.so")};
	const char *const *const envs[] = {
		ENV("LD_PRELOAD=./libwpre.so", "LD_GLOBALTAB=0"), ENV("LD_PRELOAD=./libwpre.so", "LD_GLOBALTAB=1")};
	struct fp_run plain_ref = {.dir = "weak", .prog = "prog", .libpath = "."};
	struct fp_run plain = {.dir = "weak", .prog = "opt/prog", .libpath = "opt"};
	struct run_result p;
	fp_expect_same(&plain_ref, &plain, &p);
	for (unsigned k = 0; k < 2; k++) {
		struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .env = envs[k]};
		struct run_result r;
		fp_expect_same(&ref, &qb, &r);
		cr_expect(strstr(r.out, "w3: vague=preload wdata=9 typeinfo=preload-typeinfo"), "%s: %s",
			  envs[k][1], r.out);
		cr_expect(strstr(r.out, "w2_vague=preload wdata=9 w2_absent=preload"), "%s: %s", envs[k][1], r.out);
		/* only the names the preload does not define keep their answers */
		cr_expect_lt(fp_stat(r.err, "start-up", "scope_definers"), fp_stat(p.err, "start-up", "scope_definers"),
			     "%s: %s", envs[k][1], r.err);
		run_result_free(&r);
	}
	run_result_free(&p);
}

/* Without statistics, as users run: the preload that defines the vague
 * names takes them (it comes before every definer and its filter lets
 * them through), and without it the definers give musl's answers. */
Test(FP_SUITE(fastpath), scope_definers_give_musls_answers_with_and_without_preloads)
{
	const char *const *const envs[] = {ENV("LD_PRELOAD=./libwpre.so"), ENV("LD_PRELOAD=./libwfp.so"), NULL};
	const char *const want[] = {"w3: vague=preload wdata=9 typeinfo=preload-typeinfo",
				    "w3: vague=w1-weak wdata=1 typeinfo=w1-typeinfo",
				    "w3: vague=w1-weak wdata=1 typeinfo=w1-typeinfo"};
	for (unsigned k = 0; k < 3; k++) {
		const char *qenv[] = {envs[k] ? envs[k][0] : "LD_DEBUG=", "LD_DEBUG=", NULL};
		struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = ".", .env = envs[k]};
		struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .env = qenv};
		struct run_result r;
		fp_expect_same(&ref, &qb, &r);
		cr_expect(strstr(r.out, want[k]), "%s: %s", qenv[0], r.out);
		run_result_free(&r);
	}
}

/* libw1 replaced by the library as built (no identity): no reference
 * may take its recorded definitions; all are looked up, as by musl. */
Test(FP_SUITE(fastpath), replaced_scope_definer_is_not_trusted)
{
	struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = "."};
	const char *const *const envs[] = {ENV("LD_GLOBALTAB=0"), ENV("LD_GLOBALTAB=1")};
	for (unsigned k = 0; k < 2; k++) {
		struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "orig:opt", .env = envs[k]};
		struct run_result r;
		fp_expect_same(&ref, &qb, &r);
		cr_expect(strstr(r.out, "w3: vague=w1-weak"), "%s: %s", envs[k][0], r.out);
		cr_expect_eq(fp_stat(r.err, "start-up", "scope_definers"), 0, "%s: %s", envs[k][0], r.err);
		run_result_free(&r);
	}
}

/* libw3's scope definers broken (past needed[], or a definition past the
 * definer's symbols): ignored for those references, which are looked
 * up; the other objects' definers still serve. */
static void scope_corrupt(const char *field)
{
	char libpath[64];
	snprintf(libpath, sizeof libpath, "%s:opt", field);
	struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = "."};
	struct fp_run good = {.dir = "weak", .prog = "opt/prog", .libpath = "opt"};
	struct fp_run bad = {.dir = "weak", .prog = "opt/prog", .libpath = libpath,
			     .env = ENV("LD_DEBUG=statistics,libs")};
	struct run_result g, r;
	fp_expect_same(&ref, &good, &g);
	fp_expect_same(&ref, &bad, &r);
	cr_assert(has_line(r.err, field, "libw3.so"), "the broken libw3.so was not loaded:\n%s", r.err);
	cr_expect_lt(fp_stat(r.err, "start-up", "scope_definers"), fp_stat(g.err, "start-up", "scope_definers"),
		     "broken definers (%s) were used:\n%s", field, r.err);
	run_result_free(&g);
	run_result_free(&r);
}

Test(FP_SUITE(fastpath), scope_definer_index_out_of_range) { scope_corrupt("definers_range"); }
Test(FP_SUITE(fastpath), scope_definition_out_of_range) { scope_corrupt("definer_hints_range"); }

Test(FP_SUITE(fastpath), symbol_defined_in_two_needed_libraries)
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

/* libd2only needs libd2 alone, so linkopt, run on the libraries without
 * the program, binds its dup_fn to libd2 while the global scope finds
 * libd1 first: the one case where direct binding by design differs from
 * the standard lookup (with the program given, linkopt sees its load
 * order and does not bind it: tests/test_linkopt_app.c). Verify mode must report it
 * on the path that runs without it (a definition hint in the hinted
 * loop) and change nothing. */
Test(FP_SUITE(fastpath), verify_mode_reports_a_difference_and_changes_nothing)
{
	cr_assert_eq(dump_flags("dup/opt/libd2only.so", "dup_fn"), 0x0001);
	struct fp_run qb = {.dir = "dup", .prog = "opt/prog_d2only", .libpath = "opt",
			    .env = ENV("LD_DIRECT_VERIFY=1", "LD_DEBUG=statistics")};
	struct run_result r;
	fp_exec(&r, lt_loader(), &qb);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect(strstr(r.out, "d12: dup_fn=libd2 dup_data=2\n"), "verify mode changed the binding:\n%s", r.out);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 2,
		     "dup_fn and dup_data of libd2only differ, and only they:\n%s", r.err);
	cr_expect(has_line(r.err, "verify: ", "libd2only.so: dup_fn: direct binding gives ") &&
		  has_line(r.err, "libd2only.so: dup_fn: direct binding gives ", "libd2.so, standard lookup gives ") &&
		  has_line(r.err, "libd2only.so: dup_fn: ", "standard lookup gives opt/libd1.so"),
		  "no verify report naming the object, the symbol and both definitions:\n%s", r.err);
	run_result_free(&r);

	/* Without verification, the same: direct binding's documented
	 * semantics. */
	struct fp_run direct = {.dir = "dup", .prog = "opt/prog_d2only", .libpath = "opt"};
	fp_exec(&r, lt_loader(), &direct);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect(strstr(r.out, "d12: dup_fn=libd2 dup_data=2\n"), "libd2only not bound to libd2:\n%s", r.out);
	run_result_free(&r);
}

/* libs1 and libs2 rebuilt after linkopt ran: moved_fn left libs1. */
Test(FP_SUITE(fastpath), stale_table_after_symbol_moved)
{
	cr_assert_eq(dump_flags("stale/opt/prog", "moved_fn"), 0x0001);
	struct fp_run ref = {.dir = "stale", .prog = "prog", .libpath = "new:."};
	struct fp_run qb = {.dir = "stale", .prog = "opt/prog", .libpath = "new:opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, "moved_fn in libs2"), "%s", r.out);
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
	cr_expect(strstr(r.out, "dla_fn(3)=1060"), "%s", r.out);
	cr_expect_gt(fp_stat(r.err, "dlopen", "direct_hits"), fp_stat(r.err, "start-up", "direct_hits"),
		     "no direct binding in the dlopened libraries:\n%s", r.err);
	run_result_free(&r);
}

Test(FP_SUITE(fastpath), dlopen_rtld_local)
{
	dlopen_case("local");
}

Test(FP_SUITE(fastpath), dlopen_rtld_global)
{
	dlopen_case("global");
}

static void expect_reloc(const char *file, const char *type)
{
	const char *argv[] = {"/usr/bin/readelf", "-rW", lt_fixture_path(file), NULL};
	char *rel = command_output(argv);
	cr_assert(has_line(rel, type, "t1_"), "%s has no %s against libt1's variables:\n%s", file, type, rel);
	free(rel);
}

Test(FP_SUITE(fastpath), tls_general_dynamic_and_descriptors_across_optimized_libraries)
{
	expect_reloc("tls/opt/libt2.so", FP_R_TLS_MODULE);
	expect_reloc("tls/opt/libt3.so", FP_R_TLSDESC);
	cr_assert_eq(dump_flags("tls/opt/libt2.so", "t1_var"), 0x0001);
	cr_assert_eq(dump_flags("tls/opt/libt3.so", "t1_buf"), 0x0001);
	struct fp_run ref = {.dir = "tls", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "tls", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(has_line(r.err, "libt2.so: t1_var -> ", "libt1.so"), "%s", r.err);
	cr_expect(has_line(r.err, "libt3.so: t1_buf -> ", "libt1.so"), "%s", r.err);
	cr_expect(has_line(r.err, "libt3.so: t1_var -> ", "libt1.so"), "%s", r.err);
	run_result_free(&r);
}

/* Libraries with DT_HASH alone: linkopt records SysV hash values, which
 * the loader compares before names in the SysV chains. */
Test(FP_SUITE(fastpath), sysv_hash_only_objects)
{
	const char *argv[] = {"/usr/bin/readelf", "-dW", lt_fixture_path("sysv/opt/libcore.so"), NULL};
	char *dyn = command_output(argv);
	cr_assert(strstr(dyn, "(HASH)") && !strstr(dyn, "(GNU_HASH)"), "libcore.so is not SysV-only:\n%s", dyn);
	free(dyn);
	const char *dump[] = {fp_linkopt(), "--dump", lt_fixture_path("sysv/opt/libuser.so"), NULL};
	char *d = command_output(dump);
	cr_assert(strstr(d, "sysvhash"), "no SysV hash values in the table:\n%s", d);
	free(d);
	struct fp_run ref = {.dir = "sysv", .prog = "prog_exe", .libpath = "."};
	struct fp_run qb = {.dir = "sysv", .prog = "opt/prog_exe", .libpath = "opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(has_line(r.err, "libuser.so: core_twice -> ", "libcore.so"), "%s", r.err);
	cr_expect(has_line(r.err, "libuser.so: greet: interposed by ", "prog_exe"), "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "precomputed_hashes"), 0);
	/* hints into DT_HASH-only targets are checked by their SysV values */
	cr_expect_gt(fp_stat(r.err, "start-up", "definition_hints"), 0);
	run_result_free(&r);
}

/* libt2 and libt3 dlopened while threads run: their references to libt1's
 * variables are bound directly and use dynamic TLS (___tls_get_addr and
 * the dynamic TLS descriptor resolver). */
Test(FP_SUITE(fastpath), tls_in_dlopened_optimized_libraries)
{
	struct fp_run ref = {.dir = "tls", .prog = "prog_dlthreads", .libpath = "."};
	struct fp_run qb = {.dir = "tls", .prog = "opt/prog_dlthreads", .libpath = "opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(has_line(r.err, "libt2.so: t1_var -> ", "libt1.so"), "%s", r.err);
	cr_expect(has_line(r.err, "libt3.so: t1_buf -> ", "libt1.so"), "%s", r.err);
	cr_expect(has_line(r.err, "statistics (dlopen)", "tlsdesc="), "no TLS descriptor relocated at dlopen:\n%s", r.err);
	cr_expect_gt(fp_stat(r.err, "dlopen", "direct_hits"), fp_stat(r.err, "start-up", "direct_hits"));
	run_result_free(&r);
}
