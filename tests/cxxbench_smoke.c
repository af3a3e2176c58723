/*
 * Smoke test of the benchmark's C++ office workload: bench/bench.py builds
 * a tiny one (bench/cxxgen.py: g++ for glibc, scripts/cxx/musl-c++ for musl,
 * linkopt over the musl build and its C++ runtime) beside a tiny C one and
 * reports both; then the program runs by hand, in its "check" mode (every
 * virtual method, dynamic_cast and typeid across libraries, an exception
 * crossing libraries, vague template data) and its timed mode, and must
 * print the same under musl's loader, glibc's, quickbind plain, quickbind
 * with tables and quickbind with tables in verify mode (no difference
 * between direct binding and the standard lookup).  Nothing here looks at a
 * timing.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/shell.h"
#include "lib/stats.h"

#define OUT_TEMPLATE "build/tests/cxxbench-smoke.XXXXXX"
#define WORK "work/cxx-office-3-4"

/* The section of report from heading up to the next heading of the same
 * level. */
static char *section(const char *report, const char *heading, const char *next)
{
	const char *s = strstr(report, heading), *e;
	char *out;

	cr_assert_not_null(s, "report has no section '%s'", heading);
	e = strstr(s + strlen(heading), next);
	out = strndup(s, e ? (size_t)(e - s) : strlen(s));
	cr_assert_not_null(out);
	return out;
}

/* True when the row of label carries a number rather than "failed: ...". */
static int row_measured(const char *text, const char *label)
{
	char key[128];
	const char *r;

	snprintf(key, sizeof key, "\n| %s | ", label);
	r = strstr(text, key);
	if (!r)
		return 0;
	r += strlen(key);
	return *r >= '0' && *r <= '9';
}

/* Runs PROG [ARG] of the workload in a clean environment plus env. */
static struct shell_result run_prog(const char *dir, const char *prog, const char *arg, const char *env)
{
	return shell("cd %s/" WORK " && env -i PATH=/usr/bin:/bin LC_ALL=C %s ./%s %s", dir, env, prog, arg);
}

static const char *const variants[] = {
	"glibc ld.so (lazy)", "glibc ld.so LD_BIND_NOW=1", "musl ld.so",
	"quickbind, no tables", "quickbind, all tables",
};

Test(cxxbench, tiny_cxx_office_runs_identically_everywhere, .timeout = 900)
{
	char *dir, cmd[1024], path[512];
	char *report, *sec;
	size_t i;

	cr_assert_eq(shell_status("mkdir -p build/tests"), 0);
	dir = make_tmpdir(OUT_TEMPLATE);
	snprintf(cmd, sizeof cmd,
		 "python3 bench/bench.py --out %s --libs 2 --funcs 6 --refs 6 --weak 1 "
		 "--sweep '' --no-micro --no-image --no-i386 --runs 1 --warmup 0 "
		 "--no-callgrind --no-cold --cxx-libs 3 --cxx-classes 4 >%s/log 2>&1", dir, dir);
	if (shell_status("%s", cmd) != 0) {
		snprintf(path, sizeof path, "%s/log", dir);
		cr_assert_fail("bench.py failed:\n%s", must_read_file(path, NULL));
	}
	snprintf(path, sizeof path, "%s/report.md", dir);
	report = must_read_file(path, NULL);
	sec = section(report, "## C++ office workload", "\n## ");
	for (i = 0; i < sizeof variants / sizeof variants[0]; i++)
		cr_expect(row_measured(sec, variants[i]), "C++ workload: %s not measured:\n%s",
			  variants[i], sec);
	cr_expect_not_null(strstr(sec, "### C and C++ office workloads side by side"));
	cr_expect_not_null(strstr(sec, "\n| C++ | musl | libraries + program | "), "%s", sec);
	cr_expect_not_null(strstr(sec, "\n| C | glibc | libraries + program | "), "%s", sec);
	free(sec);
	free(report);

	/* By hand, both modes: musl's loader is the reference. */
	const char *modes[] = { "check", "" };
	for (i = 0; i < 2; i++) {
		struct shell_result ref, o;

		ref = run_prog(dir, "musl/app", modes[i], "");
		cr_assert_eq(ref.status, 0, "musl/app %s: status %d\n%s", modes[i], ref.status, ref.err);
		cr_assert(!strncmp(ref.out, "cxx-office ", 11), "unexpected output: %s", ref.out);
		o = run_prog(dir, "glibc/app", modes[i], "LD_BIND_NOW=1");
		cr_expect(o.status == 0 && !strcmp(o.out, ref.out), "glibc build: %d %s (musl: %s)\n%s",
			  o.status, o.out, ref.out, o.err);
		o = run_prog(dir, "musl/app-qb", modes[i], "");
		cr_expect(o.status == 0 && !strcmp(o.out, ref.out), "quickbind plain: %d %s (musl: %s)\n%s",
			  o.status, o.out, ref.out, o.err);
		o = run_prog(dir, "musl-opt/app-qb", modes[i], "LD_DEBUG=statistics");
		cr_expect(o.status == 0 && !strcmp(o.out, ref.out), "quickbind tables: %d %s (musl: %s)\n%s",
			  o.status, o.out, ref.out, o.err);
		cr_expect_gt(ld_stat(o.err, "start-up", "launch_record"), 0, "%s", o.err);
		/* without the program's record, the libraries' own tables */
		o = run_prog(dir, "musl-opt/app-qb", modes[i], "LD_NORECORD=1 LD_DEBUG=statistics");
		cr_expect(o.status == 0 && !strcmp(o.out, ref.out), "quickbind, no record: %d %s (musl: %s)\n%s",
			  o.status, o.out, ref.out, o.err);
		cr_expect_gt(ld_stat(o.err, "start-up", "direct_hits"), 0, "%s", o.err);
		cr_expect_gt(ld_stat(o.err, "start-up", "definition_hints"), 0, "%s", o.err);
		o = run_prog(dir, "musl-opt/app-qb", modes[i], "LD_DIRECT_VERIFY=1 LD_DEBUG=statistics");
		cr_expect(o.status == 0 && !strcmp(o.out, ref.out), "quickbind verify: %d %s (musl: %s)\n%s",
			  o.status, o.out, ref.out, o.err);
		cr_expect_eq(ld_stat(o.err, "start-up", "verify_differences"), 0, "%s", o.err);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	shell_status("%s", cmd);
	free(dir);
}
