/* The loader's early requests (docs/FORMAT.md 6): what it asks the kernel
 * for ahead of the load, from the closure linkopt recorded in the program
 * or level by level. Each test works on copies of its own, made cold with
 * POSIX_FADV_DONTNEED, and tells by mincore whether a file the loader did
 * NOT load was asked for: only the requests can have brought it in. The
 * requests never decide which file is loaded, and bad records change
 * nothing but the requests. No time is measured. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fpcommon.h"
#include "lib/file.h"

struct pf {
	char *dir;          /* absolute */
	char rel[256];      /* the same, under the fixture root */
};

/* A directory of copies: a/libpf.so, b/libpf.so, bad/libpfbad.so and
 * prog (prefetch/PROG's plain build). */
static void pf_setup(struct pf *t, const char *prog)
{
	char src[4096], tmpl[4200];
	snprintf(src, sizeof src, "%s", lt_fixture_path("prefetch"));
	snprintf(tmpl, sizeof tmpl, "%s/tmp.XXXXXX", src);
	t->dir = make_tmpdir(tmpl);
	snprintf(t->rel, sizeof t->rel, "prefetch/%s", strrchr(t->dir, '/') + 1);
	shell_ok("copy the fixtures", "cd %s && mkdir a b bad && cp %s/a/libpf.so a/ && cp %s/b/libpf.so b/ && "
		 "cp %s/bad/libpfbad.so bad/ && cp %s/%s prog", t->dir, src, src, src, src, prog);
}

static void pf_teardown(struct pf *t)
{
	shell_status("rm -rf %s", t->dir);
	free(t->dir);
}

static void pf_linkopt(struct pf *t)
{
	shell_ok("linkopt records the closure", "cd %s && %s -L a prog", t->dir, fp_linkopt());
}

static char *pf_path(const struct pf *t, const char *file)
{
	static char buf[4][4400];
	static unsigned k;
	char *b = buf[k++ % 4];
	snprintf(b, sizeof buf[0], "%s/%s", t->dir, file);
	return b;
}

/* Pages of the file in the page cache, or -1 when it cannot be mapped. */
static long resident_pages(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	long page = sysconf(_SC_PAGESIZE);
	size_t n = ((size_t)st.st_size + page - 1) / page;
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	unsigned char *v = calloc(n, 1);
	long count = -1;
	if (v && !mincore(m, (size_t)st.st_size, v)) {
		count = 0;
		for (size_t i = 0; i < n; i++)
			count += v[i] & 1;
	}
	free(v);
	munmap(m, (size_t)st.st_size);
	return count;
}

/* Out of the page cache, or the test is skipped: a file system that keeps
 * every file in memory (tmpfs) has no cold files. */
static void make_cold(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert(fd >= 0, "cannot open %s", path);
	fsync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (resident_pages(path) != 0)
		cr_skip_test("%s stays in the page cache after POSIX_FADV_DONTNEED on this file system", path);
}

/* Requests the loader made may still be on their way to the page cache
 * when it exits: wait for the first page, a while, never asserting a time. */
static long resident_after_requests(const char *path)
{
	long n = 0;
	for (int i = 0; i < 200 && (n = resident_pages(path)) == 0; i++)
		usleep(10000);
	return n;
}

static void pf_run(struct run_result *r, const struct pf *t, const char *libpath, const char *const *env)
{
	struct fp_run run = {.dir = t->rel, .prog = "prog", .libpath = libpath, .env = env};
	fp_exec(r, lt_loader(), &run);
}

/* prog optimized, then change (a shell line run in the test's directory,
 * or NULL), then run with LD_LIBRARY_PATH=b: it must load b/libpf.so
 * whatever the record says; when report is not NULL, the loader's
 * LD_DEBUG=libs must say it. b/libpf.so (the size of a/'s, so the
 * record's entry) is made cold too unless warm: the loader follows the
 * record once a library it opens is cold. Returns a/libpf.so's resident
 * pages (-1: there is none). */
static long recorded_case(const char *change, const char *const *env, const char *report, int warm)
{
	struct pf t;
	pf_setup(&t, "prog");
	pf_linkopt(&t);
	if (change)
		shell_ok(change, "cd %s && %s", t.dir, change);
	const char *a = pf_path(&t, "a/libpf.so");
	if (!access(a, F_OK))
		make_cold(a);
	if (warm)
		shell_ok("read b/libpf.so", "cat %s > /dev/null", pf_path(&t, "b/libpf.so"));
	else
		make_cold(pf_path(&t, "b/libpf.so"));
	struct run_result r;
	pf_run(&r, &t, "b", env);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect_str_eq(r.out, "libpf b\n", "the run must load the library its search finds");
	if (report)
		cr_expect(strstr(r.err, report), "expected '%s' from LD_DEBUG=libs:\n%s", report, r.err);
	run_result_free(&r);
	long n = report && strstr(report, ", 1 asked") ? resident_after_requests(a) : resident_pages(a);
	pf_teardown(&t);
	return n;
}

#define ASKED(n) "prefetch: recorded closure of 1 libraries, " #n " asked for"

/* linkopt saw a/libpf.so; the run loads b/'s: a/'s is asked for all the
 * same, and nothing else decides which file is loaded. */
Test(FP_SUITE(prefetch), recorded_closure_is_asked_for_and_decides_nothing)
{
	cr_expect_gt(recorded_case(NULL, ENV("LD_DEBUG=libs"), ASKED(1), 0),
		     0, "the library linkopt recorded was not asked for");
}

/* The library start-up opens is resident: the process starts warm, and
 * the record is not followed (each check of a recorded path would cost
 * more than the library's own). */
Test(FP_SUITE(prefetch), warm_start_up_follows_no_record)
{
#ifdef FP_ARCH_I386
	SKIP_IF_I386_EMULATED(1, "qemu-user has neither cachestat nor preadv2: every start-up looks cold");
#endif
	cr_expect_eq(recorded_case(NULL, ENV("LD_DEBUG=libs"), NULL, 1), 0,
		     "a warm start-up asked for a/libpf.so");
}

Test(FP_SUITE(prefetch), nothing_is_asked_for_when_switched_off)
{
	cr_expect_eq(recorded_case(NULL, ENV("LD_NOPREFETCH=1"), NULL, 0), 0, "LD_NOPREFETCH=1 still asked for a/libpf.so");
}

/* A recorded library replaced by a file of another size is not asked for. */
Test(FP_SUITE(prefetch), replaced_library_is_not_asked_for)
{
	cr_expect_eq(recorded_case("cat b/libpf.so b/libpf.so > a/libpf.so", ENV("LD_DEBUG=libs"), ASKED(0), 0), 0,
		     "a file of another size was asked for");
}

Test(FP_SUITE(prefetch), missing_library_of_the_record_changes_nothing)
{
	recorded_case("rm a/libpf.so", ENV("LD_DEBUG=libs"), ASKED(0), 0);
}

/* nlibs far beyond the record; the first library's path past the paths */
static void damaged_record_is_ignored(long field, const char *value)
{
	char change[256];
	snprintf(change, sizeof change, "printf '%s' | dd of=prog bs=1 seek=$(( $(grep -boa QBC1 prog | "
		 "cut -d: -f1 | head -n 1) + %ld )) conv=notrunc 2>/dev/null", value, field);
	cr_expect_eq(recorded_case(change, ENV("LD_DEBUG=libs"), NULL, 0), 0, "a damaged record was followed");
}

Test(FP_SUITE(prefetch), record_with_too_many_libraries_is_ignored) { damaged_record_is_ignored(4, "\\0\\0\\0\\020"); }
Test(FP_SUITE(prefetch), record_with_a_path_outside_it_is_ignored) { damaged_record_is_ignored(16, "\\377\\377\\017\\0"); }

/* Without a record: the program's libraries are asked for as soon as the
 * program is decoded, before the first is loaded. The first,
 * bad/libpfbad.so, is not an object: the load stops there with its error,
 * yet a/libpf.so, never loaded, was asked for. */
static long level_case(const char *const *env)
{
	struct pf t;
	pf_setup(&t, "prog_bad");
	shell_ok("break libpfbad.so", "echo 'not an object' > %s/bad/libpfbad.so", t.dir);
	make_cold(pf_path(&t, "a/libpf.so"));
	struct run_result r;
	pf_run(&r, &t, "bad:a", env);
	cr_assert(r.exited && r.exit_code == 127, "%s\n%s", run_describe(&r), r.err);
	cr_expect(strstr(r.err, "Error loading shared library libpfbad.so") && count_lines(r.err) == 1,
		  "one line naming the bad library expected:\n%s", r.err);
	long n = env ? resident_pages(pf_path(&t, "a/libpf.so")) : resident_after_requests(pf_path(&t, "a/libpf.so"));
	run_result_free(&r);
	pf_teardown(&t);
	return n;
}

Test(FP_SUITE(prefetch), needed_libraries_are_asked_for_before_the_first_load)
{
	cr_expect_gt(level_case(NULL), 0, "a/libpf.so was not asked for");
}

Test(FP_SUITE(prefetch), needed_libraries_are_not_asked_for_when_switched_off)
{
	cr_expect_eq(level_case(ENV("LD_NOPREFETCH=1")), 0, "LD_NOPREFETCH=1 still asked for a/libpf.so");
}

/* Secure mode reads no record: a set-uid-root copy of an optimized
 * program run by another user asks for nothing it records (and, its
 * LD_LIBRARY_PATH ignored, finds no libpf.so); the same copy without the
 * set-uid bit, same user, same environment, its start-up cold, asks for
 * a/libpf.so (the control). Needs root to make the copy, and a kernel that runs i386
 * itself for the i386 case: qemu-user's binfmt entry has no 'C' flag, so
 * the kernel does not honour an emulated program's set-uid bit. */
static long secure_case(mode_t mode, struct run_result *r)
{
	char tmpl[] = "/tmp/qbpf-secure-XXXXXX", src[4096];
	cr_assert(mkdtemp(tmpl), "mkdtemp");
	snprintf(src, sizeof src, "%s", lt_fixture_path("prefetch"));
	shell_ok("copy the fixtures", "cd %s && chmod 755 . && mkdir a b && cp %s/a/libpf.so a/ && "
		 "cp %s/b/libpf.so b/ && cp %s/prog_interp prog && %s -L a prog && chmod %o prog && chmod -R go+rX .",
		 tmpl, src, src, src, fp_linkopt(), (unsigned)mode);
	char a[sizeof tmpl + 16], b[sizeof tmpl + 16], exe[sizeof tmpl + 16];
	snprintf(a, sizeof a, "%s/a/libpf.so", tmpl);
	snprintf(exe, sizeof exe, "%s/prog", tmpl);
	make_cold(a);
	/* the library the control run loads cold too: its start-up is */
	snprintf(b, sizeof b, "%s/b/libpf.so", tmpl);
	make_cold(b);
	char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	const char *argv[] = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
			      "/usr/bin/env", "LD_LIBRARY_PATH=b", exe, NULL};
	struct run_opts o = {.cwd = tmpl, .envp = env, .timeout_s = 30};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0);
	long n = mode & S_ISUID ? resident_pages(a) : resident_after_requests(a);
	shell_status("rm -rf %s", tmpl);
	return n;
}

Test(FP_SUITE(prefetch), secure_mode_reads_no_record)
{
#ifdef FP_ARCH_I386
	SKIP_IF_I386_EMULATED(1, "the kernel honours no set-uid bit of a program qemu-user runs");
#endif
	if (geteuid() != 0)
		cr_skip_test("not root: cannot make a set-uid-root copy to run as another user");
	if (shell_status("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups /bin/true 2>/dev/null"))
		cr_skip_test("cannot run as another user here (a user namespace that maps no other user)");
	struct run_result r;
	cr_expect_gt(secure_case(0755, &r), 0, "control run: a/libpf.so was not asked for");
	cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, "libpf b\n"), "control run: %s\n%s\n%s",
		  run_describe(&r), r.out, r.err);
	run_result_free(&r);
	cr_expect_eq(secure_case(04755, &r), 0, "a set-uid run asked for what the record names");
	cr_expect(r.exited && r.exit_code == 127 && strstr(r.err, "libpf.so"),
		  "set-uid run: LD_LIBRARY_PATH must be ignored: %s\n%s", run_describe(&r), r.err);
	run_result_free(&r);
}

/* The ranges the record of t's prog asks for of lib ("0xOFF+0xLEN ...",
 * to the end of its line), from linkopt --dump; *dump holds the output
 * (free it). */
static const char *asked_for(const struct pf *t, const char *lib, char **dump)
{
	const char *argv[] = {fp_linkopt(), "--dump", pf_path(t, "prog"), NULL};
	*dump = command_output(argv);
	char want[128];
	snprintf(want, sizeof want, "closure [0] $ORIGIN/%s:", lib);
	const char *line = strstr(*dump, want);
	cr_assert(line, "no record of %s:\n%s", lib, *dump);
	const char *r = strstr(line, "asked for:");
	cr_assert(r, "%s", line);
	return r + strlen("asked for:");
}

/* prog_cn binds its nine hundred references to libcn.so at their hints
 * once linkopt has optimized both, so start-up reads none of libcn's
 * names: the record (linkopt --dump) asks for the first page of libcn but
 * for none of the first half of its .dynstr, whose end holds the needed
 * names and the soname; and a cold run with that record works. */
Test(FP_SUITE(prefetch), names_start_up_does_not_read_are_not_asked_for)
{
	struct pf t;
	char src[4096], tmpl[4200];
	snprintf(src, sizeof src, "%s", lt_fixture_path("prefetch"));
	snprintf(tmpl, sizeof tmpl, "%s/tmp.XXXXXX", src);
	t.dir = make_tmpdir(tmpl);
	snprintf(t.rel, sizeof t.rel, "prefetch/%s", strrchr(t.dir, '/') + 1);
	shell_ok("copy and optimize the fixtures", "cd %s && cp %s/libcn.so . && cp %s/prog_cn prog && %s -L . libcn.so prog",
		 t.dir, src, src, fp_linkopt());
	const char *lib = pf_path(&t, "libcn.so");
	const char *sec_argv[] = {"/bin/sh", "-c",
		"readelf -SW \"$0\" | sed -n 's/.*\\] \\.dynstr *STRTAB *[0-9a-f]* \\([0-9a-f]*\\) \\([0-9a-f]*\\).*/\\1 \\2/p'",
		lib, NULL};
	char *sec = command_output(sec_argv);
	unsigned long off = 0, size = 0;
	cr_assert(sscanf(sec, "%lx %lx", &off, &size) == 2, "no .dynstr in libcn.so: '%s'", sec);
	free(sec);
	const unsigned long page = 4096, first = (off + page - 1) / page, end = (off + size) / page;
	cr_assert_geq(end - first, 8, "libcn.so's .dynstr is too small to tell: %lu bytes", size);

	char *dump;
	const char *line = asked_for(&t, "libcn.so", &dump), *r = line;
	int covers_header = 0, n = 0;
	unsigned long lo, len;
	int used;
	while (sscanf(r, " 0x%lx+0x%lx%n", &lo, &len, &used) == 2) {
		covers_header |= lo == 0 && len > 0;
		for (unsigned long pg = first; pg < first + (end - first) / 2; pg++)
			cr_expect(pg * page + page <= lo || pg * page >= lo + len,
				  "range 0x%lx+0x%lx asks for page %lu of libcn.so's .dynstr (pages %lu-%lu)",
				  lo, len, pg, first, end);
		r += used;
		n++;
	}
	cr_expect_gt(n, 1, "one range: nothing left out:\n%s", line);
	cr_expect(covers_header, "libcn.so's first page is not asked for:\n%s", line);
	free(dump);

	make_cold(lib);
	struct run_result res;
	pf_run(&res, &t, ".", ENV("LD_DEBUG=libs"));
	cr_assert(res.exited && res.exit_code == 0, "%s\n%s", run_describe(&res), res.err);
	cr_expect_str_eq(res.out, "494550\n");
	cr_expect(strstr(res.err, ASKED(1)), "libcn.so was not asked for:\n%s", res.err);
	run_result_free(&res);
	pf_teardown(&t);
}

/* A run's pages, recorded (LD_RECORD_PAGES) and made the record's ranges
 * (linkopt --pages): prog_ws calls ws_first and ws_last, a mebibyte of
 * code apart in libws.so. */
struct ws {
	struct pf t;
	unsigned long first, last, cold; /* file offsets in libws.so */
	unsigned long size;
};

/* The file offset of symbol name in lib (its value, less the load
 * segment's vaddr, plus its offset), from readelf. */
static unsigned long file_offset(const char *lib, const char *name)
{
	char script[700];
	snprintf(script, sizeof script,
		 "v=$(readelf -sW \"$0\" | awk '$8 == \"%s\" { print $2; exit }'); "
		 "readelf -lW \"$0\" | while read t o a p f m rest; do "
		 "[ \"$t\" = LOAD ] || continue; "
		 "if [ $((0x$v)) -ge $((a)) ] && [ $((0x$v)) -lt $((a + f)) ]; then echo $((0x$v - a + o)); break; fi; "
		 "done",
		 name);
	const char *argv[] = {"/bin/sh", "-c", script, lib, NULL};
	char *out = command_output(argv);
	unsigned long off = 0;
	cr_assert(sscanf(out, "%lu", &off) == 1, "no file offset of %s in %s: '%s'", name, lib, out);
	free(out);
	return off;
}

static void ws_setup(struct ws *w)
{
	char src[4096], tmpl[4200];
	snprintf(src, sizeof src, "%s", lt_fixture_path("prefetch"));
	snprintf(tmpl, sizeof tmpl, "%s/tmp.XXXXXX", src);
	w->t.dir = make_tmpdir(tmpl);
	snprintf(w->t.rel, sizeof w->t.rel, "prefetch/%s", strrchr(w->t.dir, '/') + 1);
	shell_ok("copy and optimize the fixtures", "cd %s && cp %s/libws.so . && cp %s/prog_ws prog && %s -L . libws.so prog",
		 w->t.dir, src, src, fp_linkopt());
	const char *lib = pf_path(&w->t, "libws.so");
	w->first = file_offset(lib, "ws_first");
	w->last = file_offset(lib, "ws_last");
	w->cold = file_offset(lib, "ws_cold") + (1u << 19);
	struct stat st;
	cr_assert(!stat(lib, &st));
	w->size = (unsigned long)st.st_size;
	cr_assert(w->first < w->cold && w->cold < w->last, "ws_first, ws_cold, ws_last out of order: %lu %lu %lu",
		  w->first, w->cold, w->last);
}

/* Does one of the ranges "0xOFF+0xLEN ..." (or "OFF LEN" lines of a
 * record, when lines) hold the byte at off? Every range must lie inside
 * the file. */
static int ranges_hold(const char *r, unsigned long off, unsigned long size, int lines)
{
	unsigned long lo, len;
	int used, held = 0;
	while (lines ? sscanf(r, "range %lx %lx\n%n", &lo, &len, &used) == 2 :
		       sscanf(r, " 0x%lx+0x%lx%n", &lo, &len, &used) == 2) {
		cr_expect(len && lo + len <= size, "range 0x%lx+0x%lx outside the file (%lu bytes)", lo, len, size);
		held |= lo <= off && off < lo + len;
		r += used;
	}
	return held;
}

/* The ranges of the recorded object whose path ends with /name, in
 * pages (the record's text), or NULL. */
static const char *recorded_object(const char *pages, const char *name)
{
	char want[64];
	snprintf(want, sizeof want, "/%s\n", name);
	const char *at = strstr(pages, want);
	return at ? at + strlen(want) : NULL;
}

Test(FP_SUITE(prefetch), recorded_pages_become_the_ranges_asked_for)
{
#ifdef FP_ARCH_I386
	SKIP_IF_I386_EMULATED(1, "qemu-user's /proc/self/pagemap is the emulator's, not the program's");
#endif
	struct ws w;
	ws_setup(&w);
	const char *rec = pf_path(&w.t, "pages");
	char env[4500];
	snprintf(env, sizeof env, "LD_RECORD_PAGES=%s", rec);
	struct run_result r;
	pf_run(&r, &w.t, ".", ENV(env));
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect_str_eq(r.out, "3\n");
	run_result_free(&r);
	char *pages = read_file(rec, NULL);
	cr_assert(pages, "the run wrote no record of pages");
	const char *obj = recorded_object(pages, "libws.so");
	cr_assert(obj, "no record of libws.so:\n%s", pages);
	cr_expect(ranges_hold(obj, w.first, w.size, 1), "the page of ws_first is not recorded:\n%s", pages);
	cr_expect(ranges_hold(obj, w.last, w.size, 1), "the page of ws_last is not recorded:\n%s", pages);
	cr_expect(!ranges_hold(obj, w.cold, w.size, 1), "a page of ws_cold, never run, is recorded:\n%s", pages);
	free(pages);

	shell_ok("linkopt --pages", "cd %s && %s --pages pages -L . libws.so prog", w.t.dir, fp_linkopt());
	char *dump;
	const char *asked = asked_for(&w.t, "libws.so", &dump), *line = asked;
	cr_expect(ranges_hold(asked, 0, w.size, 0), "the headers are not asked for:\n%s", line);
	cr_expect(ranges_hold(asked, w.first, w.size, 0), "ws_first is not asked for:\n%s", line);
	cr_expect(ranges_hold(asked, w.last, w.size, 0), "ws_last is not asked for:\n%s", line);
	cr_expect(!ranges_hold(asked, w.cold, w.size, 0), "ws_cold is asked for:\n%s", line);
	free(dump);

	make_cold(pf_path(&w.t, "libws.so"));
	pf_run(&r, &w.t, ".", ENV("LD_DEBUG=libs"));
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect_str_eq(r.out, "3\n");
	cr_expect(strstr(r.err, ASKED(1)), "libws.so was not asked for:\n%s", r.err);
	run_result_free(&r);
	pf_teardown(&w.t);
}

/* A record of pages that is not one (a line of something else, a range
 * past the end of its file) is refused with one line naming it and the
 * line, and no file is changed. */
static void bad_pages(const char *content, const char *line)
{
	struct ws w;
	ws_setup(&w);
	shell_ok("write the record", "cd %s && cp prog prog.orig && printf '%s' > pages", w.t.dir, content);
	char cmd[5000];
	snprintf(cmd, sizeof cmd, "cd %s && %s --pages pages -L . libws.so prog", w.t.dir, fp_linkopt());
	const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	struct run_result r;
	struct run_opts o = {.timeout_s = 60};
	cr_assert(run_program(&r, (char *const *)argv, &o) == 0);
	cr_expect(r.exited && r.exit_code == 2, "%s", run_describe(&r));
	cr_expect(strstr(r.err, "linkopt: ") == r.err && strstr(r.err, line) && strstr(r.err, "not a record of pages") &&
			  strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		  "expected one line naming the record and %s:\n%s", line, r.err);
	run_result_free(&r);
	cr_expect_eq(shell_status("cd %s && cmp -s prog prog.orig", w.t.dir), 0, "linkopt changed prog");
	pf_teardown(&w.t);
}

Test(FP_SUITE(prefetch), malformed_record_of_pages_is_refused)
{
	bad_pages("object 1 2 10000 /x\\nrange 0 1000\\nhello\\n", "line 3");
}

Test(FP_SUITE(prefetch), record_of_pages_past_the_end_of_its_file_is_refused)
{
	bad_pages("object 1 2 1000 /x\\nrange 0 2000\\n", "line 2");
}

/* A record that cannot be written costs the run nothing but one line. */
Test(FP_SUITE(prefetch), record_of_pages_that_cannot_be_written_is_one_line)
{
	struct ws w;
	ws_setup(&w);
	struct run_result r;
	pf_run(&r, &w.t, ".", ENV("LD_RECORD_PAGES=/nonexistent/pages"));
	cr_expect(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect_str_eq(r.out, "3\n");
	cr_expect(strstr(r.err, "LD_RECORD_PAGES: /nonexistent/pages: ") &&
			  strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		  "expected one line naming the record:\n%s", r.err);
	run_result_free(&r);
	pf_teardown(&w.t);
}
