/* Differential test: a generated application of 50 libraries
 * (tests/fastpath/gen_app.sh: cross-library calls and data references,
 * duplicated, weak, interposed and copy-relocated symbols) optimized by
 * linkopt, run in verify mode: every direct binding agrees with the
 * standard lookup, and the output is musl's. Compiled once per
 * architecture (see fpcommon.h); on i386 the executable is built at a
 * fixed address so that its data references are copy relocations, as in
 * an x86_64 PIE. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fpcommon.h"

static struct fp_run ref = {.dir = "app", .prog = "prog", .libpath = "."};

Test(FP_SUITE(app50), fixture_is_of_the_architecture_with_copy_relocations)
{
	fp_expect_arch("app/opt/prog");
	fp_expect_arch("app/opt/libg49.so");
	const char *argv[] = {"/usr/bin/readelf", "-rW", lt_fixture_path("app/opt/prog"), NULL};
	char *rel = command_output(argv);
	cr_expect(strstr(rel, FP_R_COPY), "no copy relocation in the executable:\n%s", rel);
	free(rel);
}

Test(FP_SUITE(app50), verify_mode_finds_no_difference)
{
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_DIRECT_VERIFY=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_geq(fp_stat(r.err, "start-up", "objects"), 51);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 100);
	cr_expect_gt(fp_stat(r.err, "start-up", "interposer_hits"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "precomputed_hashes"), 0);
	run_result_free(&r);
}

Test(FP_SUITE(app50), direct_binding_gives_musls_output)
{
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 100);
	cr_expect_eq(fp_stat(r.err, "start-up", "direct_misses"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "definition_hints"), 0);
	run_result_free(&r);
}

Test(FP_SUITE(app50), standard_path_gives_musls_output)
{
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_NODIRECT=1", "LD_NOHASHVALS=1", "LD_NOSYMCACHE=1", "LD_NOHINTS=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_eq(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_eq(fp_stat(r.err, "start-up", "precomputed_hashes"), 0);
	run_result_free(&r);
}
