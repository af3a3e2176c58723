/* i386 differential test: the generated application of 50 libraries
 * (tests/fastpath/gen_app.sh, built with i386-linux-musl-gcc, executable
 * at a fixed address so its data references are R_386_COPY) optimized by
 * linkopt and run in verify mode: every direct binding agrees with the
 * standard lookup, and the output is that of musl's i386 loader. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "i3fhelp.h"

static struct fp_run ref = {.dir = "app", .prog = "prog", .libpath = "."};

Test(i386_app50, fixture_is_i386_with_copy_relocations)
{
	expect_elf32_i386("app/opt/prog");
	expect_elf32_i386("app/opt/libg49.so");
	const char *argv[] = {"/usr/bin/readelf", "-rW", fp_fixture("app/opt/prog"), NULL};
	char *rel = fp_command_output(argv);
	cr_expect(strstr(rel, "R_386_COPY"), "no copy relocation in the executable:\n%s", rel);
	free(rel);
}

Test(i386_app50, verify_mode_finds_no_difference)
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

Test(i386_app50, direct_binding_gives_musls_output)
{
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt"};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 100);
	cr_expect_eq(fp_stat(r.err, "start-up", "direct_misses"), 0);
	cr_expect_gt(fp_stat(r.err, "start-up", "definition_hints"), 0);
	run_result_free(&r);
}

Test(i386_app50, standard_path_gives_musls_output)
{
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt",
			    .env = ENV("LD_NODIRECT=1", "LD_NOHASHVALS=1", "LD_NOSYMCACHE=1", "LD_NOHINTS=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_eq(fp_stat(r.err, "start-up", "direct_hits"), 0);
	cr_expect_eq(fp_stat(r.err, "start-up", "precomputed_hashes"), 0);
	run_result_free(&r);
}
