/* The relocation matrix on MX_ARCH (tests/matrix/, tests/matrix.mk): for
 * each family and program, the toolchain must have put every cell's
 * relocation where the matrix says, and quickbind (PT_INTERP and direct
 * invocation) must print the generated expectation, "ok" for every cell
 * in every thread. For the std family musl's loader must print exactly
 * the same; for ext and relr, which musl 1.2.3 cannot run (no IRELATIVE
 * or IFUNC, no PC64, no text relocations in a program, no DT_RELR), the
 * expected values are the reference and musl's outcome is only logged. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/run.h"

static void run(struct run_result *r, const char *dir, char *const *argv)
{
	struct run_opts o = {.cwd = dir, .envp = run_base_env, .timeout_s = 120};
	cr_assert(run_program(r, argv, &o) == 0, "cannot run %s", argv[0]);
}

static int same_as(const char *what, const struct run_result *r, const char *want)
{
	int ok = r->exited && r->exit_code == 0 && !strcmp(r->out, want);
	if (!ok)
		cr_log_error("%s: %s\n--- stdout:\n%s--- stderr:\n%s", what, run_describe(r), r->out, r->err);
	return ok;
}

static void program(const char *fam, const char *prog)
{
	char dir[4096], exp[4200], musl[64], qb[64];
	snprintf(dir, sizeof dir, "%s/%s", MX_DIR, fam);
	snprintf(exp, sizeof exp, "%s/%s.expected", dir, prog);
	snprintf(musl, sizeof musl, "./%s.musl", prog);
	snprintf(qb, sizeof qb, "./%s.qb", prog);
	char *want = must_read_file(exp, NULL);
	cr_assert(count_lines(want) > 50, "%s: the expectation is too small", exp);

	struct run_result r;
	char *interp[] = {qb, NULL}, *direct[] = {MX_LOADER, musl, NULL}, *ref[] = {musl, NULL};
	run(&r, dir, interp);
	int a = same_as("PT_INTERP", &r, want);
	run_result_free(&r);
	run(&r, dir, direct);
	int b = same_as("direct invocation", &r, want);
	run_result_free(&r);
	run(&r, dir, ref);
	if (!strcmp(fam, "std")) {
		cr_expect(same_as("musl's loader", &r, want), MX_ARCH " %s/%s: musl's loader differs", fam, prog);
	} else {
		cr_log_info(MX_ARCH " %s/%s under musl's loader (no reference there): %s, %d cells ok; %.200s",
			fam, prog, run_describe(&r), count_lines(r.out), r.err);
	}
	run_result_free(&r);
	cr_assert(a && b, MX_ARCH " %s/%s: quickbind differs from the expected values (%d lines)",
		fam, prog, count_lines(want));
	free(want);
}

static void relocations(const char *fam)
{
	static const char *const objs[][3] = {
		{"libmxn.so", "lib", "n_"}, {"libmxl.so", "lib", "l_"}, {"libmxg.so", "lib", "g_"},
		{"pie.musl", "pie", "p_"}, {"exe.musl", "exe", "p_"},
	};
	for (size_t i = 0; i < sizeof objs / sizeof *objs; i++) {
		char obj[4096], cells[4096];
		snprintf(obj, sizeof obj, "%s/%s/%s", MX_DIR, fam, objs[i][0]);
		snprintf(cells, sizeof cells, "%s/gen/%s-%s.cells", MX_DIR, fam, objs[i][1]);
		char *argv[] = {"/bin/sh", MX_SRC "/verify.sh", obj, cells, (char *)objs[i][2], NULL};
		struct run_result r;
		run(&r, MX_DIR, argv);
		cr_expect(r.exited && r.exit_code == 0, "%s: relocations missing:\n%s%s", obj, r.out, r.err);
		run_result_free(&r);
	}
}

Test(matrix, std_relocations_in_place) { relocations("std"); }
Test(matrix, ext_relocations_in_place) { relocations("ext"); }
Test(matrix, relr_relocations_in_place) { relocations("relr"); }
Test(matrix, std_pie) { program("std", "pie"); }
Test(matrix, std_exe) { program("std", "exe"); }
Test(matrix, ext_pie) { program("ext", "pie"); }
Test(matrix, ext_exe) { program("ext", "exe"); }
Test(matrix, relr_pie) { program("relr", "pie"); }
Test(matrix, relr_exe) { program("relr", "exe"); }
