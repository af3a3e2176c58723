/* The configured musl's API beyond 1.2.3, and the LFS64 names it no longer
 * defines (tests/muslapi/, built by tests/muslapi.mk for MA_ARCH). Every
 * program runs under that musl's loader (the reference) and quickbind, as
 * PT_INTERP and by direct invocation: stdout and exit status must match.
 * A program whose functions this musl lacks was not built: its test says
 * so and is skipped. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "lib/compare.h"
#include "lib/shell.h"

static int built(const char *prog)
{
	char key[64];
	snprintf(key, sizeof key, " %s ", prog);
	return strstr(MA_BUILT, key) != NULL;
}

static void same(const char *prog, const char *needs)
{
	if (!built(prog))
		cr_skip_test("musl %s (%s) has no %s", MA_MUSL, MA_ARCH, needs);
	struct lt_case c = {.dir = ".", .prog = prog};
	cr_expect_eq(lt_expect_same(&c), 2, "%s (%s, musl %s): both quickbind runs must match musl's",
		     prog, MA_ARCH, MA_MUSL);
}

Test(musl_api, statx) { same("statx", "statx"); }
Test(musl_api, preadv2_pwritev2) { same("rwv2", "preadv2/pwritev2"); }
Test(musl_api, renameat2) { same("renameat2", "renameat2"); }
Test(musl_api, posix_getdents) { same("getdents", "posix_getdents"); }
Test(musl_api, getrandom) { same("getrandom", "getrandom"); }

/* On i386 the program must really bind musl's time64 symbols, else the
 * comparison proves nothing about them. */
Test(musl_api, time64)
{
	same("time64", "64-bit time");
	struct shell_result r = shell("nm -D --undefined-only '%s/time64.qb'", lt_fixtures());
	cr_assert_eq(r.status, 0, "nm failed: %s", r.err);
	int is32 = !strcmp(MA_ARCH, "i386");
	const char *syms[] = {"__clock_gettime64", "__gmtime64_r", "__stat_time64", "__utimensat_time64"};
	for (size_t i = 0; i < sizeof syms / sizeof *syms; i++)
		cr_expect_eq(strstr(r.out, syms[i]) != NULL, is32,
			     "time64.qb (%s) %s %s:\n%s", MA_ARCH, is32 ? "does not use" : "uses", syms[i], r.out);
	shell_result_free(&r);
}

/* Built by musl 1.2.3 with the LFS64 names: quickbind (and, since it
 * binds these, the configured musl's own loader) must give the output of
 * the same program built with the plain names. */
Test(musl_api, lfs64_names)
{
	struct shell_result r = shell("nm -D --undefined-only '%s/lfs64/prog.qb'", lt_fixtures());
	cr_assert(r.status == 0 && strstr(r.out, " fopen64") && strstr(r.out, " stat64") &&
		  strstr(r.out, " readdir64_r"), "lfs64/prog.qb must reference the LFS64 names:\n%s%s",
		  r.out, r.err);
	shell_result_free(&r);
	struct lt_case plain = {.dir = "lfs64", .prog = "prog", .ref = LT_REF_PLAIN};
	cr_expect_eq(lt_expect_same(&plain), 2, "lfs64 (%s, musl %s): quickbind must bind the LFS64 names",
		     MA_ARCH, MA_MUSL);
	struct lt_case old = {.dir = "lfs64", .prog = "prog"};
	cr_expect_eq(lt_expect_same(&old), 2, "lfs64 (%s, musl %s): quickbind must match musl's loader",
		     MA_ARCH, MA_MUSL);
}

/* posix_fallocate64: musl 1.2.4 and 1.2.5's loaders miss this one (a
 * name longer than their buffer); quickbind binds it on every version,
 * so only the plain build is the reference. */
Test(musl_api, lfs64_long_name)
{
	struct lt_case plain = {.dir = "lfs64long", .prog = "prog", .ref = LT_REF_PLAIN};
	cr_expect_eq(lt_expect_same(&plain), 2, "lfs64long (%s, musl %s): quickbind must bind posix_fallocate64",
		     MA_ARCH, MA_MUSL);
	struct run_result r;
	struct lt_case old = {.dir = "lfs64long", .prog = "prog"};
	lt_run(&r, &old, LT_WAY_REF);
	cr_log_info("musl %s's own loader on lfs64long/prog.musl: %s %s", MA_MUSL, run_describe(&r), r.err);
	run_result_free(&r);
}
