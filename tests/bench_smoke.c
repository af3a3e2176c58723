/*
 * Smoke test of the benchmark suite: bench/bench.py generates, builds and
 * runs every workload at a tiny size, and the report must have a row for
 * every loader variant and a section for every workload.  Nothing here
 * looks at a timing: speed is `make bench`'s business; this only keeps the
 * suite from rotting.  When configure enabled i386 (BENCH_I386, from
 * tests/bench.mk), the i386 column runs too and its rows are checked.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/shell.h"

#define OUT_TEMPLATE "build/tests/bench-smoke.XXXXXX"

static char *make_outdir(void)
{
	cr_assert_eq(shell_status("mkdir -p build/tests"), 0);
	return make_tmpdir(OUT_TEMPLATE);
}

/* The report line of a variant, or NULL. */
static const char *row(const char *report, const char *label)
{
	char key[128];

	snprintf(key, sizeof key, "\n| %s |", label);
	return strstr(report, key);
}

/* True when the row of label carries a median (a digit) rather than a
 * "failed: ..." status. */
static int row_measured(const char *report, const char *label)
{
	const char *r = row(report, label);

	if (!r)
		return 0;
	r += strlen(label) + 5;
	while (*r == ' ')
		r++;
	return *r >= '0' && *r <= '9';
}

/* The section of report from heading up to the next "## ". */
static char *section(const char *report, const char *heading)
{
	const char *s = strstr(report, heading), *e;
	char *out;

	cr_assert_not_null(s, "report has no section '%s'", heading);
	e = strstr(s + strlen(heading), "\n## ");
	if (!e)
		e = s + strlen(s);
	out = strndup(s, e - s);
	cr_assert_not_null(out);
	return out;
}

static const char *const variants[] = {
	"glibc ld.so (lazy)", "glibc ld.so LD_BIND_NOW=1", "musl ld.so",
	"quickbind, no tables", "quickbind, direct binding only",
	"quickbind, precomputed hashes only",
	"quickbind, sorted tables / symbol cache only", "quickbind, all tables",
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* The i386 column's variants: the reference loaders, then quickbind. */
static const char *const variants_i386[] = {
	"glibc ld.so (lazy)", "glibc ld.so LD_BIND_NOW=1", "musl ld.so",
	"quickbind, no tables", "quickbind, all tables",
};
#define NVARIANTS_I386 (sizeof variants_i386 / sizeof variants_i386[0])

#ifndef BENCH_I386
#define BENCH_I386 0
#endif

/* Every i386 workload has a table with a measured row per variant: `make
 * check` builds the i386 loader and linkopt first, so the quickbind rows
 * must pass the output check against musl's i386 loader too. */
static void check_i386(const char *report)
{
	const char *subs[] = { "### i386: office-3", "### i386: dlopen", "### i386: chain" };
	char *all = section(report, "## i386");
	size_t i, j;

	for (i = 0; i < sizeof subs / sizeof subs[0]; i++) {
		const char *s = strstr(all, subs[i]), *e;
		char *sec;

		cr_assert_not_null(s, "i386 section has no '%s'", subs[i]);
		e = strstr(s + strlen(subs[i]), "\n### ");
		sec = strndup(s, e ? (size_t)(e - s) : strlen(s));
		cr_assert_not_null(sec);
		for (j = 0; j < NVARIANTS_I386; j++)
			cr_expect(row_measured(sec, variants_i386[j]),
				  "%s: %s not measured", subs[i], variants_i386[j]);
		free(sec);
	}
	cr_expect_not_null(strstr(all, "### i386: targets"));
	cr_expect_not_null(strstr(all, "### x86_64 and i386 side by side: office-3"));
	free(all);
}

Test(bench, tiny_suite_builds_runs_and_reports, .timeout = 600)
{
	char *dir = make_outdir(), cmd[1024], path[512];
	const char *sections[] = { "## office-3", "## dlopen", "## chain" };
	char *report, *png;
	size_t i, j;

	snprintf(cmd, sizeof cmd,
		 "python3 bench/bench.py --out %s --libs 3 --funcs 20 --refs 20 "
		 "--weak 2 --sweep 2,3 --runs 2 --warmup 1 --dlopen-syms 100 "
		 "--chain-syms 60 --chain 20 --no-callgrind --no-cxx%s >%s/log 2>&1",
		 dir, BENCH_I386 ? "" : " --no-i386", dir);
	if (shell_status("%s", cmd) != 0) {
		snprintf(path, sizeof path, "%s/log", dir);
		cr_assert_fail("bench.py failed:\n%s", must_read_file(path, NULL));
	}
	snprintf(path, sizeof path, "%s/report.md", dir);
	report = must_read_file(path, NULL);
	for (i = 0; i < sizeof sections / sizeof sections[0]; i++) {
		char *sec = section(report, sections[i]);

		for (j = 0; j < NVARIANTS; j++)
			cr_expect_not_null(row(sec, variants[j]),
					   "%s: no row for %s", sections[i], variants[j]);
		/* The reference loaders always run: the generated programs are
		 * plain C, and glibc's output must equal musl's. */
		for (j = 0; j < 3; j++)
			cr_expect(row_measured(sec, variants[j]),
				  "%s: %s not measured", sections[i], variants[j]);
		free(sec);
	}
	cr_expect_not_null(strstr(report, "## Targets"));
	cr_expect_not_null(strstr(report, "\n| 2 | "), "sweep row for 2 libraries");
	cr_expect_not_null(strstr(report, "\n| 3 | "), "sweep row for 3 libraries");
	if (BENCH_I386)
		check_i386(report);
	else
		cr_expect_not_null(strstr(report, "## i386\n\nNot measured: --no-i386."),
				   "report does not say the i386 column was turned off");

	/* The image row: the programs of the musl image under the three
	 * loaders (chroot, so only as root). */
	char *img = section(report, "## Image");
	if (geteuid() == 0) {
		cr_expect(row(img, "busybox true") && row(img, "zexample"), "image row incomplete:\n%s", img);
		cr_expect(!strstr(img, "Not measured"), "image row not measured as root:\n%s", img);
	} else {
		cr_expect_not_null(strstr(img, "Not measured: needs root"), "image row:\n%s", img);
	}
	free(img);

	/* The chart is a PNG when gnuplot is there (it is in scripts/deps.sh). */
	snprintf(path, sizeof path, "%s/startup.png", dir);
	png = must_read_file(path, NULL);
	cr_expect(memcmp(png, "\x89PNG", 4) == 0, "startup.png is not a PNG");
	free(png);
	free(report);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	shell_status("%s", cmd);
	free(dir);
}

Test(bench, generator_is_deterministic, .timeout = 300)
{
	char *dir = make_outdir(), cmd[1024];
	int k;

	for (k = 0; k < 2; k++) {
		snprintf(cmd, sizeof cmd,
			 "python3 bench/gen.py office %s/w%d --libs 4 --funcs 30 "
			 "--refs 30 --weak 3 --seed 7 --linkopt /nonexistent >/dev/null 2>&1",
			 dir, k);
		cr_assert_eq(shell_status("%s", cmd), 0, "gen.py failed");
	}
	snprintf(cmd, sizeof cmd, "diff -r %s/w0/src %s/w1/src >/dev/null", dir, dir);
	cr_expect_eq(shell_status("%s", cmd), 0, "same seed, different sources");
	/* Both builds of the same sources must print the same checksum, which
	 * covers every binding, the weak ones included. */
	snprintf(cmd, sizeof cmd,
		 "test \"$(%s/w0/glibc/app check)\" = \"$(%s/w0/musl/app check)\"",
		 dir, dir);
	cr_expect_eq(shell_status("%s", cmd), 0, "glibc and musl builds disagree");
	snprintf(cmd, sizeof cmd,
		 "python3 bench/gen.py office %s/w2 --libs 4 --funcs 30 "
		 "--refs 30 --weak 3 --seed 8 --linkopt /nonexistent >/dev/null 2>&1 && "
		 "! diff -r %s/w0/src %s/w2/src >/dev/null", dir, dir, dir);
	cr_expect_eq(shell_status("%s", cmd), 0, "another seed must give another workload");
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	shell_status("%s", cmd);
	free(dir);
}
