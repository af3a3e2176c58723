/* Differential test: a generated application of 50 libraries
 * (tests/fastpath/gen_app.sh: cross-library calls and data references,
 * duplicated, weak, interposed and copy-relocated symbols) optimized by
 * linkopt, run in verify mode: every direct binding agrees with the
 * standard lookup, and the output is musl's. */
#include <criterion/criterion.h>

#include "fpcommon.h"

#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})

static struct fp_run ref = {.dir = "app", .prog = "prog", .libpath = "."};

Test(app50, verify_mode_finds_no_difference)
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

Test(app50, direct_binding_gives_musls_output)
{
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 100);
	cr_expect_eq(fp_stat(r.err, "start-up", "direct_misses"), 0);
	run_result_free(&r);
}

Test(app50, standard_path_gives_musls_output)
{
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_NODIRECT=1", "LD_NOHASHVALS=1", "LD_NOSYMCACHE=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_eq(fp_stat(r.err, "start-up", "direct_hits"), 0);
	run_result_free(&r);
}
