/* C++ programs across several libraries and a dlopened plugin, built with
 * the musl C++ toolchain (scripts/cxx-toolchain.sh): vtables, exceptions,
 * RTTI, static constructors and destructors, thread_local, vague linkage.
 * Each scenario runs under musl's loader (the reference, whose output must
 * also be the expected one), under quickbind on the plain build, on copies
 * optimized by linkopt, and on those in verify mode (no difference between
 * direct binding and the standard lookup). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "fpcommon.h"

#define CTORS "ctor shape\nctor circle\nctor square\nctor main\n"
#define DTORS "main returns\ndtor main\ndtor square\ndtor circle\ndtor shape\n"

/* Runs "app SCENARIO" four ways and checks stdout against want. */
static void scenario(const char *name, const char *want, const char *when)
{
	const char *args[] = {name, NULL};
	struct fp_run ref = {.dir = ".", .prog = "app", .libpath = ".", .args = args};
	struct run_result m;
	fp_exec(&m, lt_musl_ldso(), &ref);
	cr_assert(m.exited && m.exit_code == 0, "app %s under musl: %s\n%s", name, run_describe(&m), m.err);
	cr_assert_str_eq(m.out, want, "app %s under musl's loader: unexpected output\nstderr:\n%s", name, m.err);
	run_result_free(&m);

	struct fp_run plain = ref;
	struct run_result r;
	fp_expect_same(&ref, &plain, &r);
	run_result_free(&r);

	struct fp_run opt = {.dir = ".", .prog = "opt/app", .libpath = "opt", .args = args};
	fp_expect_same(&ref, &opt, &r);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0, "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "precomputed_hashes"), 0, "%s", r.err);
	run_result_free(&r);

	struct fp_run verify = opt;
	verify.env = ENV("LD_DIRECT_VERIFY=1", "LD_DEBUG=statistics");
	fp_expect_same(&ref, &verify, &r);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	if (when)
		cr_expect_eq(fp_stat(r.err, when, "verify_differences"), 0, "%s", r.err);
	run_result_free(&r);
}

Test(FP_SUITE(cxx), static_constructors_and_destructors_in_dependency_order)
{
	scenario("none", CTORS "== none\n" DTORS, NULL);
}

Test(FP_SUITE(cxx), virtual_calls_across_libraries)
{
	scenario("vtables", CTORS "== vtables\ncircle 3.14\nsquare 4.00\nring 12.57\nbase name shape\n" DTORS, NULL);
}

Test(FP_SUITE(cxx), exceptions_across_libraries)
{
	scenario("exceptions", CTORS "== exceptions\n"
		 "out_of_range: circle index\nShapeError: circle error\nInlineError: 42\nint: 7\n"
		 "as std::exception: circle error\ncircle saw circle index\nrethrown: circle index\n"
		 "exception_ptr: captured\ncaught in libsquare: 42 -1\n" DTORS, NULL);
}

Test(FP_SUITE(cxx), rtti_across_libraries)
{
	scenario("rtti", CTORS "== rtti\ncircle_is_circle 1 0\ndynamic_cast 1 0\ntypeid 6Circle 1 0\n"
		 "one InlineError typeinfo 1\none Tag typeinfo 1\n" DTORS, NULL);
}

Test(FP_SUITE(cxx), vague_linkage_gives_one_object)
{
	scenario("vague", CTORS "== vague\nCounter<int>::n 4\none Holder<int>::value 1 value 104\n"
		 "shared_calls 4\n" DTORS, NULL);
}

Test(FP_SUITE(cxx), thread_local_destructors)
{
	scenario("tls", CTORS "== tls\nthread_local dtor 1\njoined\nuntouched thread\n"
		 "main returns\nthread_local dtor 0\ndtor main\ndtor square\ndtor circle\ndtor shape\n", NULL);
}

Test(FP_SUITE(cxx), dlopened_plugin)
{
	scenario("plugin", CTORS "== plugin\nctor plugin\ntriangle 6.00 typeid N12_GLOBAL__N_18TriangleE circle 0\n"
		 "plugin threw: from plugin\nplugin threw InlineError 5\nCounter<int>::n 2\n"
		 "one InlineError typeinfo 1\none Holder<int>::value 1\n"
		 "main returns\ndtor plugin\ndtor main\ndtor square\ndtor circle\ndtor shape\n", "dlopen");
}

Test(FP_SUITE(cxx), fixtures_carry_vague_symbols_and_tables)
{
	const char *argv[] = {"/usr/bin/readelf", "--dyn-syms", "-W", lt_fixture_path("opt/libcircle.so"), NULL};
	char *syms = command_output(argv);
	cr_expect(has_line(syms, "WEAK", "_ZTI11InlineError"), "no weak typeinfo in libcircle:\n%s", syms);
	cr_expect(has_line(syms, "GLOBAL", "_ZTV6Circle"), "no vtable in libcircle:\n%s", syms);
	free(syms);
	fp_expect_arch("opt/libc++.so.1");
	const char *dyn[] = {"/usr/bin/readelf", "-dW", lt_fixture_path("opt/app"), NULL};
	char *d = command_output(dyn);
	cr_expect(strstr(d, "(SYMINFO)") && strstr(d, "[libc++.so.1]") && strstr(d, "[libc.so]"),
		  "app is not an optimized musl C++ program:\n%s", d);
	free(d);
}
