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

/* The cold rows' variants on the office workload, then its floor's. */
static const char *const cold_variants[] = {
	"glibc ld.so (lazy)", "glibc ld.so LD_BIND_NOW=1", "musl ld.so",
	"quickbind, no tables", "quickbind, no tables, LD_NOPREFETCH=1",
	"quickbind, all tables", "quickbind, all tables, LD_NOPREFETCH=1",
	"quickbind, all tables, recorded pages",
	"floor: glibc ld.so LD_BIND_NOW=1", "floor: musl ld.so", "floor: quickbind, no tables",
	"floor: quickbind, all tables",
};
#define NCOLD (sizeof cold_variants / sizeof cold_variants[0])

/* Checks of bench/cold.py's results (a "cold" object of JSON file argv[1],
 * workload directory argv[2]): every variant of the first workload ran,
 * and its closure was resident after its runs; with argv[2], each file of
 * the workload directory was out of the page cache just before each run
 * (files mode evicts it, and nothing else reads it) and in it after. */
static const char cold_check_py[] =
	"import json, os, sys\n"
	"r = json.load(open(sys.argv[1]))\n"
	"c = r.get('cold', r)\n"
	"assert c['method'] == 'files', c['method']\n"
	"w = c['workloads'][0]\n"
	"top = os.path.realpath(sys.argv[2]) + '/' if len(sys.argv) > 2 else None\n"
	"for n in w['order']:\n"
	"    v = w['variants'][n]\n"
	"    assert v['status'] == 'ok', (n, v['status'])\n"
	"    assert v['resident_bytes'] > 0, (n, 'nothing resident after the run')\n"
	"    assert v['closure_files'] >= 2, (n, 'closure', v['files'])\n"
	"    if top:\n"
	"        own = [f for f in v['files'] if f.startswith(top)]\n"
	"        assert len(own) >= 2, (n, 'own files', list(v['files']))\n"
	"        for f in own:\n"
	"            size, before, after = v['files'][f]\n"
	"            assert before == 0, (n, f, before, 'resident before the run')\n"
	"            assert after > 0, (n, f, 'not resident after the run')\n"
	"print(len(w['order']))\n";

static void run_cold_check(const char *json, const char *wdir)
{
	struct shell_result r;
	char py[600];
	FILE *f;

	snprintf(py, sizeof py, "%s.py", json);
	f = fopen(py, "w");
	cr_assert_not_null(f, "%s", py);
	fputs(cold_check_py, f);
	cr_assert_eq(fclose(f), 0);
	r = shell("python3 %s.py %s %s", json, json, wdir ? wdir : "");
	cr_expect_eq(r.status, 0, "cold results: %s%s", r.out, r.err);
	shell_result_free(&r);
}

/* Whether bench.py can run programs chrooted into the image: as root, or
 * as root of a user namespace of its own (bench/image.py). */
static int can_enter_image(void)
{
	return geteuid() == 0 || shell_status("unshare --user --map-root-user --mount true >/dev/null 2>&1") == 0;
}

/* The cold section of bench.py's report: every variant measured, with
 * the closure files evicted (never the whole page cache: tests run beside
 * other work). */
static void check_cold(const char *report, const char *dir)
{
	char *sec = section(report, "## Cold start-up"), *off, path[512];
	size_t i;

	cr_expect_not_null(strstr(sec, "POSIX_FADV_DONTNEED"), "eviction method:\n%s", sec);
	cr_expect_null(strstr(sec, "drop_caches"), "the tests must not drop the page cache:\n%s", sec);
	off = strstr(sec, "### Cold: office-3");
	cr_assert_not_null(off, "no cold office-3 table:\n%s", sec);
	for (i = 0; i < NCOLD; i++)
		cr_expect(row_measured(off, cold_variants[i]), "cold office-3: %s not measured:\n%s",
			  cold_variants[i], sec);
	if (can_enter_image())
		cr_expect(row_measured(sec, "quickbind, all tables (linkopt --root)"),
			  "cold image rows:\n%s", sec);
	free(sec);
	snprintf(path, sizeof path, "%s/results.json", dir);
	run_cold_check(path, NULL);
}

/* Checks of the kernel's share in bench.py's results (JSON file argv[1]):
 * every measured variant of every workload has its rusage medians and a
 * strace count, the counts add up, each dynamically linked run opens and
 * maps at least one file per library, and the static build of the office
 * workload, checked and timed like a variant, opens none and makes fewer
 * system calls and page faults than musl's loader.  Counts only: no time
 * is compared. */
static const char kernel_check_py[] =
	"import json, sys\n"
	"r = json.load(open(sys.argv[1]))\n"
	"def check(where, v, libs):\n"
	"    k, s = v['kernel'], v['syscalls']\n"
	"    for f in ('user_us', 'sys_us', 'minflt', 'majflt'):\n"
	"        assert k[f]['median'] >= 0 and k[f]['mean'] >= 0, (where, f, k)\n"
	"    assert k['user_us']['mean'] + k['sys_us']['mean'] > 0, (where, 'no CPU time', k)\n"
	"    assert k['minflt']['median'] > 0, (where, 'no minor fault', k)\n"
	"    assert s['total'] > 0 and s['total'] == sum(s['calls'].values()), (where, s)\n"
	"    assert s['calls'].get('execve', 0) >= 1, (where, 'execve not counted', s)\n"
	"    c = s['calls']\n"
	"    if libs:\n"
	"        assert c.get('openat', 0) + c.get('open', 0) >= libs, (where, 'opens', s)\n"
	"        assert c.get('mmap', 0) + c.get('mmap2', 0) >= libs, (where, 'maps', s)\n"
	"    return s['total'], k['minflt']['median']\n"
	"n = 0\n"
	"for part in ('workloads', 'floors'):\n"
	"    for key, w in r[part].items():\n"
	"        libs = w['params'].get('libs') if w['kind'] == 'office' else 1\n"
	"        for name, v in w['variants'].items():\n"
	"            if v['status'] != 'ok':\n"
	"                assert not name.startswith(('glibc', 'musl')), (key, name, v['status'])\n"
	"                continue\n"
	"            check((part, key, name), v, libs)\n"
	"            n += 1\n"
	"w = r['workloads']['office-3']\n"
	"for name in ('qb-none', 'qb-all'):\n"
	"    assert w['variants'][name]['status'] == 'ok', (name, w['variants'][name])\n"
	"st = w['references']['static']\n"
	"assert st['status'] == 'ok', st\n"
	"total, flt = check('static', st, 0)\n"
	"c = st['syscalls']['calls']\n"
	"assert c.get('openat', 0) + c.get('open', 0) == 0, ('static opens files', c)\n"
	"mtotal, mflt = check('musl', w['variants']['musl'], 3)\n"
	"assert total < mtotal and flt < mflt, ('static', total, flt, 'musl', mtotal, mflt)\n"
	"for p in r['sweep']:\n"
	"    for name, v in p['variants'].items():\n"
	"        if v['status'] == 'ok':\n"
	"            check(('sweep', p['libs'], name), v, p['libs'])\n"
	"print(n)\n";

static void check_kernel(const char *report, const char *dir)
{
	const char *keys[] = { "office-3", "dlopen", "chain" };
	struct shell_result r;
	char path[512], py[600], head[128];
	size_t i, j;
	FILE *f;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		char *sec;

		snprintf(head, sizeof head, "### The kernel's share: %s", keys[i]);
		sec = section(report, head);
		for (j = 0; j < NVARIANTS; j++)
			cr_expect_not_null(row(sec, variants[j]), "%s: no row for %s", head,
					   variants[j]);
		for (j = 0; j < 3; j++)
			cr_expect(row_measured(sec, variants[j]), "%s: %s not measured", head,
				  variants[j]);
		if (i == 0) {
			cr_expect(row_measured(sec, "static executable (musl-gcc -static)"),
				  "%s: static row not measured:\n%s", head, sec);
			cr_expect(row_measured(sec, "floor: musl ld.so"),
				  "%s: floor row not measured:\n%s", head, sec);
			cr_expect_not_null(strstr(sec, " syscalls / library |"), "%s", sec);
		}
		free(sec);
	}
	snprintf(path, sizeof path, "%s/results.json", dir);
	snprintf(py, sizeof py, "%s.kernel.py", path);
	f = fopen(py, "w");
	cr_assert_not_null(f, "%s", py);
	fputs(kernel_check_py, f);
	cr_assert_eq(fclose(f), 0);
	r = shell("python3 %s %s", py, path);
	cr_expect_eq(r.status, 0, "kernel's share in the results: %s%s", r.out, r.err);
	shell_result_free(&r);
}

Test(bench, tiny_suite_builds_runs_and_reports, .timeout = 600)
{
	char *dir = make_outdir(), cmd[8192], path[512], top[512];
	const char *sections[] = { "## office-3", "## dlopen", "## chain" };
	char *report, *png;
	size_t i, j;

	/* Started from an empty directory, which must stay empty: every
	 * measured program runs in a scratch directory (zlib's example of
	 * the image row writes foo.gz where it runs). */
	cr_assert_not_null(getcwd(top, sizeof top));
	shell_ok("make the caller's directory", "mkdir %s/cwd", dir);
	snprintf(cmd, sizeof cmd,
		 "cd %s/cwd && python3 %s/bench/bench.py --out %s/%s --libs 3 --funcs 20 "
		 "--refs 20 --weak 2 --sweep 2,3 --runs 2 --warmup 1 --dlopen-syms 100 "
		 "--chain-syms 60 --chain 20 --no-callgrind --no-cxx%s --evict files --cold-runs 1 "
		 "--loader %s/build/lib/ld-quickbind-x86_64.so.1 "
		 "--i386-loader %s/build/lib/ld-quickbind-i386.so.1 "
		 "--linkopt %s/build/bin/linkopt >../log 2>&1",
		 dir, top, top, dir, BENCH_I386 ? "" : " --no-i386", top, top, top);
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
	 * loaders, in a chroot (as root, or through a user namespace). */
	char *img = section(report, "## Image");
	if (can_enter_image()) {
		cr_expect(row(img, "busybox true") && row(img, "zexample"), "image row incomplete:\n%s", img);
		cr_expect(!strstr(img, "Not measured"), "image row not measured (uid %d):\n%s",
			  (int)geteuid(), img);
	} else {
		cr_expect_not_null(strstr(img, "Not measured: needs root or a user namespace"),
				   "image row:\n%s", img);
	}
	free(img);
	shell_ok("the caller's directory stays empty", "test -z \"$(ls -A %s/cwd)\" || "
		 "{ ls -lA %s/cwd; false; }", dir, dir);
	shell_ok("no file left in the image", "! ls %s/image/*/foo.gz 2>/dev/null", dir);

	check_kernel(report, dir);
	check_cold(report, dir);

	/* The charts are PNGs when gnuplot is there (it is in scripts/deps.sh). */
	snprintf(path, sizeof path, "%s/startup.png", dir);
	png = must_read_file(path, NULL);
	cr_expect(memcmp(png, "\x89PNG", 4) == 0, "startup.png is not a PNG");
	free(png);
	snprintf(path, sizeof path, "%s/cold.png", dir);
	png = must_read_file(path, NULL);
	cr_expect(memcmp(png, "\x89PNG", 4) == 0, "cold.png is not a PNG");
	free(png);
	free(report);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	shell_status("%s", cmd);
	free(dir);
}

/* bench/cold.py alone on a workload: each run finds the workload's files
 * evicted and leaves them resident (mincore), in files mode. */
Test(bench, cold_files_mode_evicts_and_counts, .timeout = 300)
{
	char *dir = make_outdir(), cmd[2048], top[512], path[512];
	struct shell_result r;

	cr_assert_not_null(getcwd(top, sizeof top));
	r = shell("stat -f -c %%T %s", dir);
	if (r.status == 0 && strstr(r.out, "tmpfs"))
		cr_skip_test("%s is on tmpfs, whose pages cannot be evicted", dir);
	shell_result_free(&r);
	snprintf(cmd, sizeof cmd,
		 "python3 bench/gen.py office %s/w --libs 3 --funcs 20 --refs 20 --weak 2 "
		 "--deps 2 --loader %s/build/lib/ld-quickbind-x86_64.so.1 "
		 "--linkopt %s/build/bin/linkopt >%s/log 2>&1 && "
		 "python3 bench/cold.py --evict files --runs 2 --no-floor "
		 "--launcher %s/qbb-launch --loader %s/build/lib/ld-quickbind-x86_64.so.1 "
		 "-o %s/cold.json %s/w >>%s/log 2>&1",
		 dir, top, top, dir, dir, top, dir, dir, dir);
	if (shell_status("%s", cmd) != 0) {
		snprintf(path, sizeof path, "%s/log", dir);
		cr_assert_fail("cold.py failed:\n%s", must_read_file(path, NULL));
	}
	snprintf(path, sizeof path, "%s/cold.json", dir);
	snprintf(cmd, sizeof cmd, "%s/w", dir);
	run_cold_check(path, cmd);
	shell_status("rm -rf %s", dir);
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

/*
 * bench/qemucount.py, the instruction count used where valgrind cannot run
 * the programs (i386 under qemu-user): a loop of three instructions an
 * iteration (a 9-byte nop, which qemu's listing shows on two lines, dec,
 * jnz; in asm so no compiler changes it), run N times.
 * The counts for N and N + 1000 must differ by exactly 3,000; on x86_64
 * the same program's count must match callgrind's.  Both counters are
 * checked: the TCG plugin (bench/qinsn.c, under Debian's qemu-user) and
 * qemu's block log (bench/qcount.c, under any qemu), and they must agree
 * to the instruction.
 */
static const char loop_src[] =
	"#include <stdlib.h>\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tunsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 0;\n"
	"\tif (n)\n"
	"\t\t__asm__ volatile(\"1: .byte 0x66,0x0f,0x1f,0x84,0,0,0,0,0\\n\\tdec %0\\n\\tjnz 1b\"\n"
	"\t\t\t\t : \"+r\"(n));\n"
	"\treturn 0;\n"
	"}\n";

/* The plugin-capable qemus, from Debian's qemu-user (scripts/deps.sh). */
#define QEMU_I386_PLUGIN "/usr/bin/qemu-i386"
#define QEMU_X86_64_PLUGIN "/usr/bin/qemu-x86_64"
/* bench.mk's build of the plugin (make check builds it, tests/bench.mk) */
#define PLUGIN "build/bench/qinsn.so"

/* The path of tool on PATH, or NULL. Free it. */
static char *which(const char *tool)
{
	struct shell_result r = shell("command -v %s", tool);
	char *p = NULL;

	if (r.status == 0 && r.out[0] == '/') {
		r.out[strcspn(r.out, "\n")] = 0;
		p = strdup(r.out);
	}
	shell_result_free(&r);
	return p;
}

/* dir/loop built from loop_src by cc. */
static void build_loop(const char *dir, const char *cc)
{
	shell_ok("write the loop program", "printf '%%s' '%s' > %s/loop.c", loop_src, dir);
	shell_ok("build the loop program", "%s -O1 -o %s/loop %s/loop.c", cc, dir, dir);
}

static unsigned long long number(const char *what, struct shell_result *r)
{
	char *end;
	unsigned long long v = strtoull(r->out, &end, 10);

	cr_assert(r->status == 0 && end != r->out && (*end == '\n' || !*end),
		  "%s: status %d, output '%s', errors:\n%s", what, r->status, r->out, r->err);
	shell_result_free(r);
	return v;
}

/* Instructions of `dir/loop n` counted by qemucount.py under qemu with the
 * counter method ("plugin" or "log"). */
static unsigned long long qemu_count(const char *dir, const char *method, const char *qemu,
				     unsigned long n)
{
	struct shell_result r = shell("python3 bench/qemucount.py --method %s --qemu %s "
				      "--counter %s/qbb-qcount --plugin " PLUGIN " %s/loop %lu",
				      method, qemu, dir, dir, n);
	return number(method, &r);
}

/* Instructions of `dir/loop n` by callgrind. */
static unsigned long long callgrind_count(const char *dir, unsigned long n)
{
	struct shell_result r = shell("valgrind --tool=callgrind --callgrind-out-file=/dev/null "
				      "%s/loop %lu 2>&1 >/dev/null | sed -n 's/.*Collected : *//p'",
				      dir, n);
	return number("callgrind", &r);
}

/* The loop's counts for 1,000, 2,000 and 3,000 iterations must step by
 * 3,000, and cover a whole musl process; the first is returned. */
static unsigned long long check_i386_steps(const char *dir, const char *method,
					   const char *qemu)
{
	unsigned long long c1, c2, c3;

	c1 = qemu_count(dir, method, qemu, 1000);
	c2 = qemu_count(dir, method, qemu, 2000);
	c3 = qemu_count(dir, method, qemu, 3000);
	cr_expect_eq(c2 - c1, 3000, "%s: 1,000 more iterations counted as %lld instructions, "
		     "not 3,000", method, (long long)(c2 - c1));
	cr_expect_eq(c3 - c2, 3000, "%s: 1,000 more iterations counted as %lld instructions, "
		     "not 3,000", method, (long long)(c3 - c2));
	/* the whole process is counted: musl's loader and start-up too */
	cr_expect_gt(c1, 10000, "%s: %llu instructions for a whole musl program", method, c1);
	return c1;
}

Test(bench, qemu_count_i386_loop, .timeout = 300)
{
	char *qemu = which("qemu-i386-static"), *dir;
	unsigned long long c1;

	if (!qemu)
		cr_skip_test("qemu-i386-static is not installed: the qemu block-log "
			     "instruction count is not tested");
	if (!BENCH_I386)
		cr_skip_test("i386 is not configured (no i386-linux-musl-gcc): the qemu "
			     "instruction count is not tested");
	dir = make_outdir();
	build_loop(dir, "i386-linux-musl-gcc");
	c1 = check_i386_steps(dir, "log", qemu);
	/* Where the kernel hands i386 programs to qemu, bench finds that
	 * emulator itself (binfmt_misc) and counts the same. */
	if (shell_status("grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-i386") == 0) {
		struct shell_result r = shell("python3 bench/qemucount.py --method log "
					      "--counter %s/qbb-qcount %s/loop 1000", dir, dir);
		cr_expect_eq(number("qemucount.py without --qemu", &r), c1,
			     "the emulator binfmt_misc names counts differently");
	}
	shell_status("rm -rf %s", dir);
	free(dir);
	free(qemu);
}

Test(bench, qemu_plugin_count_i386_loop_equals_log, .timeout = 300)
{
	char *qstatic = which("qemu-i386-static"), *dir;
	unsigned long long p1;

	if (access(QEMU_I386_PLUGIN, X_OK) != 0)
		cr_skip_test(QEMU_I386_PLUGIN " is missing (package qemu-user, scripts/deps.sh): "
			     "the plugin instruction count is not tested");
	if (!BENCH_I386)
		cr_skip_test("i386 is not configured (no i386-linux-musl-gcc): the qemu "
			     "instruction count is not tested");
	dir = make_outdir();
	build_loop(dir, "i386-linux-musl-gcc");
	p1 = check_i386_steps(dir, "plugin", QEMU_I386_PLUGIN);
	/* The plugin and the block log count the same run identically.  The
	 * log counter runs under the static qemu binfmt uses where there is
	 * one (the program sees the same argv, environment and auxv). */
	cr_expect_eq(qemu_count(dir, "log", qstatic ? qstatic : QEMU_I386_PLUGIN, 1000), p1,
		     "the block log counts differently from the plugin (%llu)", p1);
	/* By default (binfmt's emulator found by bench itself), the plugin is
	 * used, under the dynamic qemu of the same name. */
	if (qstatic && shell_status("grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-i386") == 0) {
		struct shell_result r = shell("python3 bench/qemucount.py -v --plugin " PLUGIN
					      " %s/loop 1000", dir);

		cr_expect(strstr(r.err, "counter: plugin (" QEMU_I386_PLUGIN ")") != NULL,
			  "default counter: %s", r.err);
		cr_expect_eq(number("qemucount.py without --qemu", &r), p1,
			     "the default count differs from the plugin's");
	}
	shell_status("rm -rf %s", dir);
	free(dir);
	free(qstatic);
}

/* A program with a second thread: the plugin's adds are not atomic, so the
 * default count falls back to the block log, and says so. */
static const char thread_src[] =
	"#include <pthread.h>\n"
	"static void *run(void *p) { return p; }\n"
	"int main(void)\n"
	"{\n"
	"\tpthread_t t;\n"
	"\treturn pthread_create(&t, 0, run, 0) || pthread_join(t, 0);\n"
	"}\n";

Test(bench, qemu_count_threads_fall_back_to_log, .timeout = 300)
{
	char *qstatic = which("qemu-i386-static"), *dir;
	struct shell_result r;

	if (access(QEMU_I386_PLUGIN, X_OK) != 0 || !qstatic)
		cr_skip_test("%s is missing (scripts/deps.sh): the counter fallback is not "
			     "tested", qstatic ? QEMU_I386_PLUGIN : "qemu-i386-static");
	if (!BENCH_I386)
		cr_skip_test("i386 is not configured (no i386-linux-musl-gcc): the qemu "
			     "instruction count is not tested");
	dir = make_outdir();
	shell_ok("write the thread program", "printf '%%s' '%s' > %s/thr.c", thread_src, dir);
	shell_ok("build the thread program", "i386-linux-musl-gcc -O1 -o %s/thr %s/thr.c",
		 dir, dir);
	r = shell("python3 bench/qemucount.py -v --qemu %s --counter %s/qbb-qcount "
		  "--plugin " PLUGIN " %s/thr", qstatic, dir, dir);
	cr_expect(strstr(r.err, "counter: log") && strstr(r.err, "fallback: 2 threads"),
		  "a threaded program: %s", r.err);
	cr_expect_gt(number("threaded program", &r), 10000);
	r = shell("python3 bench/qemucount.py --method plugin --qemu %s --plugin " PLUGIN
		  " %s/thr", qstatic, dir);
	cr_expect(r.status != 0 && strstr(r.err, "threads"),
		  "--method plugin on a threaded program: status %d, %s", r.status, r.err);
	shell_result_free(&r);
	shell_status("rm -rf %s", dir);
	free(dir);
	free(qstatic);
}

/* x86_64 programs run natively, so callgrind can count them too: each
 * counter's count under qemu-x86_64 must match it. */
static void check_x86_64(const char *method, const char *qemu)
{
	char *dir = make_outdir();
	unsigned long long q1, q2, c1, c2;

	build_loop(dir, "musl-gcc");
	q1 = qemu_count(dir, method, qemu, 1000000);
	q2 = qemu_count(dir, method, qemu, 2000000);
	c1 = callgrind_count(dir, 1000000);
	c2 = callgrind_count(dir, 2000000);
	cr_expect_eq(q2 - q1, 3000000, "%s: %lld", method, (long long)(q2 - q1));
	cr_expect_eq(c2 - c1, q2 - q1, "callgrind %lld, qemu (%s) %lld instructions for the "
		     "same iterations", (long long)(c2 - c1), method, (long long)(q2 - q1));
	/* Totals: callgrind's run also counts valgrind's preloaded core
	 * library (about 12,000 instructions); the rest must agree. */
	cr_expect(q2 <= c2 && c2 - q2 < c2 / 50, "whole run: qemu (%s) %llu, callgrind %llu",
		  method, q2, c2);
	shell_status("rm -rf %s", dir);
	free(dir);
}

Test(bench, qemu_count_matches_callgrind_x86_64, .timeout = 300)
{
	char *qemu = which("qemu-x86_64-static"), *vg = which("valgrind");

	if (!qemu || !vg)
		cr_skip_test("%s is not installed: the qemu count is not compared with "
			     "callgrind", qemu ? "valgrind" : "qemu-x86_64-static");
	check_x86_64("log", qemu);
	free(qemu);
	free(vg);
}

Test(bench, qemu_plugin_count_matches_callgrind_x86_64, .timeout = 300)
{
	char *vg = which("valgrind");

	if (access(QEMU_X86_64_PLUGIN, X_OK) != 0 || !vg)
		cr_skip_test("%s is missing (scripts/deps.sh): the plugin count is not "
			     "compared with callgrind", vg ? QEMU_X86_64_PLUGIN : "valgrind");
	check_x86_64("plugin", QEMU_X86_64_PLUGIN);
	free(vg);
}
