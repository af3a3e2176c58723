/* The global table (ldso/ext/globaltab.c) gives the bindings of the standard
 * lookup. The fixture of tests/globaltab.mk runs under musl's loader (the
 * reference) and under quickbind with the table forced on
 * (LD_GLOBALTAB=1), off (=0) and left to the loader, with and without an
 * LD_PRELOAD interposer, on every configured architecture. Outputs must
 * be musl's, except the lines starting with "x:", where quickbind differs
 * from musl by design (it binds a reference to vfunc@VER_1 to that hidden
 * version; it unloads a dlclosed library nothing else holds), which must
 * read as expected. With the table forced on, the loader must report it
 * built (every object but the DT_HASH-only one entered) and, in verify
 * mode, that each global lookup gave what the object walk gives. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/file.h"
#include "lib/fixture.h"
#include "lib/run.h"
#include "lib/shell.h"

static void run(struct run_result *r, const char *arch, int qb, const char *const *extra)
{
	char dir[PATH_MAX], loader[PATH_MAX], preload[PATH_MAX + 64];
	snprintf(dir, sizeof dir, "%s/%s", GT_DIR, arch);
	snprintf(loader, sizeof loader, "%s/ld-quickbind-%s.so.1", GT_LOADER_DIR, arch);
	char *env[8] = { "PATH=/usr/bin:/bin" };
	int n = 1;
	for (; extra && *extra; extra++) {
		if (!strcmp(*extra, "PRELOAD")) {
			snprintf(preload, sizeof preload, "LD_PRELOAD=%s/libgtpre.so", dir);
			env[n++] = preload;
		} else {
			env[n++] = (char *)*extra;
		}
	}
	env[n] = NULL;
	char *aq[] = { loader, "./prog.musl", NULL };
	char *am[] = { "./prog.musl", NULL };
	struct run_opts o = { .cwd = dir, .envp = env, .timeout_s = 60 };
	cr_assert_eq(run_program(r, qb ? aq : am, &o), 0, "cannot run the fixture");
	cr_assert(r->exited && r->exit_code == 0, "%s %s: %s\n%s", arch, qb ? "quickbind" : "musl",
		run_describe(r), r->err);
}

/* The lines of s that start (or not) with "x:". */
static char *lines(const char *s, int x)
{
	char *out = calloc(1, strlen(s) + 1);
	cr_assert(out);
	for (const char *l = s; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l + 1) : strlen(l);
		if ((strncmp(l, "x:", 2) == 0) == x)
			strncat(out, l, len);
		l += len;
	}
	return out;
}

static void compare(const char *arch, int preload, const char *gtab)
{
	const char *extra[3] = { NULL }, **e = extra;
	if (preload)
		*e++ = "PRELOAD";
	if (gtab)
		*e++ = gtab;
	struct run_result ref, qb;
	run(&ref, arch, 0, extra);
	run(&qb, arch, 1, extra);
	char *want = lines(ref.out, 0), *got = lines(qb.out, 0), *x = lines(qb.out, 1);
	cr_expect_str_eq(got, want, "%s%s %s: quickbind's bindings differ from musl's", arch,
		preload ? " LD_PRELOAD" : "", gtab ? gtab : "LD_GLOBALTAB unset");
	cr_expect_str_eq(x, "x: vold=vfunc VER_1\n", "%s: %s", arch,
		gtab ? gtab : "LD_GLOBALTAB unset");
	cr_expect(strstr(want, preload ? "who=pre\n" : "who=a\n"), "%s: the fixture is not what the test expects:\n%s",
		arch, ref.out);
	free(want);
	free(got);
	free(x);
	run_result_free(&ref);
	run_result_free(&qb);
}

static void both(const char *arch)
{
	if (!arch_configured(GT_ARCHS, arch))
		cr_skip_test("%s not configured", arch);
	for (int preload = 0; preload < 2; preload++) {
		compare(arch, preload, "LD_GLOBALTAB=1");
		compare(arch, preload, "LD_GLOBALTAB=0");
		compare(arch, preload, NULL);
	}
}

Test(globaltab, same_bindings_as_musl_x86_64) { both("x86_64"); }
Test(globaltab, same_bindings_as_musl_i386) { both("i386"); }

static void verified(const char *arch)
{
	if (!arch_configured(GT_ARCHS, arch))
		cr_skip_test("%s not configured", arch);
	const char *extra[] = { "PRELOAD", "LD_GLOBALTAB=1", "LD_DIRECT_VERIFY=1", "LD_DEBUG=statistics", NULL };
	struct run_result r;
	run(&r, arch, 1, extra);
	const char *t = strstr(r.err, "global table: objects=");
	cr_assert(t, "%s: no global table was built:\n%s", arch, r.err);
	unsigned objects = 0, entered = 0;
	cr_assert_eq(sscanf(t, "global table: objects=%u entered=%u", &objects, &entered), 2);
	/* the program, the interposer, six libraries, the loader; all but
	 * libgtsysv.so (no DT_GNU_HASH) in the table */
	cr_expect_eq(objects, 9, "%s: %u objects at start-up", arch, objects);
	cr_expect_eq(entered, objects - 1, "%s: %u of %u objects entered", arch, entered, objects);
	cr_expect(!strstr(r.err, "verify:"), "%s: the table and the walk disagree:\n%s", arch, r.err);
	int reports = 0;
	for (const char *v = r.err; (v = strstr(v, "verify_differences=")); v++, reports++)
		cr_expect_eq(strtoul(v + strlen("verify_differences="), NULL, 10), 0, "%s:\n%s", arch, r.err);
	cr_expect(reports >= 2, "%s: no verify report for start-up and dlopen:\n%s", arch, r.err);
	run_result_free(&r);
}

Test(globaltab, verify_mode_finds_no_difference_x86_64) { verified("x86_64"); }
Test(globaltab, verify_mode_finds_no_difference_i386) { verified("i386"); }

/* Whether the table pays is the loader's own decision, made before any
 * relocation from what the objects say of themselves; it must be the
 * cheaper choice. Each program runs under callgrind with the table
 * forced off and on (instruction counts are repeatable), and the
 * loader's own choice, which it reports with LD_DEBUG=statistics, must
 * be the one that took fewer instructions (either, when the two are
 * within 2% of each other). */
static long long instructions(const char *dir, const char *gtab)
{
	char loader[PATH_MAX];
	snprintf(loader, sizeof loader, "%s/ld-quickbind-x86_64.so.1", GT_LOADER_DIR);
	struct shell_result r = shell("cd %s && env -i PATH=/usr/bin:/bin LD_GLOBALTAB=%s "
				      "valgrind --tool=callgrind --callgrind-out-file=/dev/null %s ./app",
				      dir, gtab, loader);
	cr_assert_eq(r.status, 0, "%s: %s", dir, r.err);
	const char *c = strstr(r.err, "Collected : ");
	cr_assert(c, "%s: no callgrind total in:\n%s", dir, r.err);
	long long n = atoll(c + strlen("Collected : "));
	shell_result_free(&r);
	return n;
}

static int table_built(const char *dir)
{
	char loader[PATH_MAX];
	snprintf(loader, sizeof loader, "%s/ld-quickbind-x86_64.so.1", GT_LOADER_DIR);
	struct shell_result r = shell("cd %s && env -i PATH=/usr/bin:/bin LD_DEBUG=statistics "
				      "%s ./app", dir, loader);
	cr_assert_eq(r.status, 0, "%s: %s", dir, r.err);
	int built = strstr(r.err, "global table: objects=") != NULL;
	shell_result_free(&r);
	return built;
}

/* 1: the table was the cheaper choice, 0: not building it, -1: a tie. */
static int chooses_the_cheaper(const char *dir)
{
	long long off = instructions(dir, "0"), on = instructions(dir, "1");
	int built = table_built(dir);
	long long lo = off < on ? off : on;
	if ((off > on ? off - on : on - off) * 50 < lo)
		return -1;
	cr_expect_eq(built, on < off, "%s: the loader %s the table; forced off %lld instructions, "
		     "forced on %lld", dir, built ? "built" : "did not build", off, on);
	return on < off;
}

/* Programs of bench/gen.py's office shape, 16 libraries: without tables,
 * every library refers to the others' functions (thousands of lookups)
 * or, the floor workload, each reaches only its own code; with linkopt's
 * tables, 200 or 3 weak names a library left to the standard lookup and
 * its scope definers. Between them both choices win somewhere. */
Test(globaltab, the_cheaper_choice, .timeout = 900)
{
	if (!arch_configured(GT_ARCHS, "x86_64"))
		cr_skip_test("x86_64 not configured");
	char *dir = make_tmpdir(NULL);
	const char *gen = "python3 bench/gen.py office %s/%s --libs 16 --funcs 300 --refs 300 "
			  "--weak %s --seed 3 --linkopt " GT_LINKOPT " %s >/dev/null 2>&1";
	shell_ok("gen.py office", gen, dir, "refs", "3", "");
	shell_ok("gen.py office --floor", gen, dir, "floor", "3", "--floor");
	shell_ok("gen.py office --weak 200", gen, dir, "vague", "200", "");
	int wins[2] = { 0, 0 };
	const char *const cases[] = { "refs/musl", "floor/musl", "refs/musl-opt", "floor/musl-opt",
				      "vague/musl", "vague/musl-opt" };
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char w[PATH_MAX];
		snprintf(w, sizeof w, "%s/%s", dir, cases[i]);
		int c = chooses_the_cheaper(w);
		if (c >= 0)
			wins[c]++;
	}
	cr_expect(wins[0] && wins[1], "the programs do not make each choice win: table lost %d, won %d",
		  wins[0], wins[1]);
	shell_status("rm -rf %s", dir);
	free(dir);
}
