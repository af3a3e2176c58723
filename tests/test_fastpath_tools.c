/* gdb and valgrind on optimized programs under quickbind's loader, and an
 * optimized program started by the kernel through PT_INTERP. Compiled
 * once per architecture (see fpcommon.h); the host's x86_64 gdb and
 * valgrind handle i386 processes too, when the kernel runs them natively. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fpcommon.h"
#include "lib/file.h"

static void run_tool(struct run_result *r, const char *dir, const char *const *argv, int timeout)
{
	char cwd[4096];
	snprintf(cwd, sizeof cwd, "%s", lt_fixture_path(dir));
	char *const env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", "LD_LIBRARY_PATH=opt", "LD_DEBUG=statistics", NULL};
	struct run_opts o = {.cwd = cwd, .envp = env, .timeout_s = timeout};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0, "cannot run %s", argv[0]);
}

/* The kernel starts the loader named in PT_INTERP (no direct
 * invocation): same output as prog_exe under musl, start-up bound from
 * the program's launch record. */
Test(FP_SUITE(tools), optimized_program_runs_through_pt_interp)
{
	const char *argv[] = {"/usr/bin/readelf", "-lW", lt_fixture_path("interpose/opt/prog_gdb"), NULL};
	char *ph = command_output(argv);
	cr_assert(strstr(ph, FP_LOADER_NAME), "PT_INTERP is not " FP_LOADER_NAME ":\n%s", ph);
	free(ph);
	struct run_result m, r;
	fp_exec(&m, lt_musl_ldso(), &(struct fp_run){.dir = "interpose", .prog = "prog_exe", .libpath = "."});
	cr_assert(m.exited && m.exit_code == 0, "reference: %s\n%s", run_describe(&m), m.err);
	const char *prog[] = {"./opt/prog_gdb", NULL};
	run_tool(&r, "interpose", prog, 30);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	cr_expect_str_eq(r.out, m.out);
	cr_expect(strstr(r.err, "launch record: held"), "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "launch_record"), 0);
	run_result_free(&m);
	run_result_free(&r);
}

/* gdb in dir, stopping at a pending breakpoint on fn, then listing the
 * libraries and the backtrace before letting the program (opt/prog_gdb,
 * with arg when not NULL) finish. Asserts that gdb stopped there and
 * printed the library table; *info points into r->out at that table. */
static void gdb_break(struct run_result *r, const char **info, const char *dir, const char *fn, const char *arg)
{
	char brk[64], stop[80];
	snprintf(brk, sizeof brk, "break %s", fn);
	snprintf(stop, sizeof stop, "Breakpoint 1, %s", fn);
	const char *argv[] = {"/usr/bin/gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off",
			      "-ex", "set breakpoint pending on", "-ex", brk, "-ex", "run",
			      "-ex", "info sharedlibrary", "-ex", "bt", "-ex", "delete", "-ex", "continue",
			      "--args", "opt/prog_gdb", arg, NULL};
	run_tool(r, dir, argv, 90);
	cr_expect(r->exited && r->exit_code == 0, "gdb: %s\n%s%s", run_describe(r), r->out, r->err);
	cr_expect(strstr(r->out, stop), "gdb did not stop in %s:\n%s%s", fn, r->out, r->err);
	*info = strstr(r->out, "Shared Object Library");
	cr_assert(*info, "no 'info sharedlibrary' table:\n%s%s", r->out, r->err);
}

/* opt/prog_gdb names quickbind's loader in PT_INTERP; core_twice is in
 * libcore.so, not loaded when the breakpoint is set. */
Test(FP_SUITE(tools), gdb_breaks_in_a_library_and_lists_the_libraries, .timeout = 120)
{
	FP_NEEDS_TRACEABLE_PROCESS();
	fp_expect_arch("interpose/opt/prog_gdb");
	struct run_result r;
	const char *info;
	gdb_break(&r, &info, "interpose", "core_twice", NULL);
	cr_expect(strstr(r.out, "in user_run ()"), "no backtrace through libuser:\n%s", r.out);
	static const char *const libs[] = {"opt/libuser.so", "opt/libcore.so", FP_LOADER_NAME, NULL};
	for (const char *const *l = libs; *l; l++)
		cr_expect(has_line(info, "Yes", *l), "'info sharedlibrary' lacks %s with symbols:\n%s", *l, info);
	cr_expect(strstr(r.out, "user: greet=executable core_greet=executable sum=72"),
		  "the program did not finish under gdb:\n%s", r.out);
	cr_expect(strstr(r.out, "exited normally"), "%s", r.out);
	run_result_free(&r);
}

/* dlb_fn is in libdlb.so, which arrives only with dlopen("libdla.so"). */
Test(FP_SUITE(tools), gdb_breaks_in_a_dlopened_library, .timeout = 120)
{
	FP_NEEDS_TRACEABLE_PROCESS();
	struct run_result r;
	const char *info;
	gdb_break(&r, &info, "dlopen", "dlb_fn", "global");
	cr_expect(strstr(r.out, "in dla_fn ("), "no backtrace through libdla:\n%s", r.out);
	cr_expect(has_line(info, "Yes", "opt/libdla.so") && has_line(info, "Yes", "opt/libdlb.so"),
		  "'info sharedlibrary' lacks the dlopened libraries:\n%s", info);
	cr_expect(strstr(r.out, "dlc_fn(4)="), "the program did not finish under gdb:\n%s", r.out);
	run_result_free(&r);
}

static void valgrind_case(const char *dir, const char *prog, const char *expect)
{
	const char *argv[] = {"/usr/bin/valgrind", "-q", "--error-exitcode=99", lt_loader(), prog, NULL};
	struct run_result r;
	run_tool(&r, dir, argv, 100);
	cr_expect(r.exited && r.exit_code == 0, "valgrind %s/%s: %s\n%s", dir, prog, run_describe(&r), r.err);
	cr_expect(strstr(r.out, expect), "valgrind %s/%s: output incomplete:\n%s", dir, prog, r.out);
	run_result_free(&r);
}

/* valgrind preloads a library of its own (memcheck's also defines malloc
 * and its kin) that defines none of the names the program's launch
 * record answers: the record holds under every tool, so callgrind counts
 * what runs without valgrind. The C library's own references, which the
 * record leaves to the lookup, still take memcheck's malloc. */
Test(FP_SUITE(tools), launch_record_holds_under_callgrind, .timeout = 200)
{
	FP_NEEDS_TRACEABLE_PROCESS();
	const char *tools[] = {"--tool=none", "--tool=callgrind", "--tool=memcheck"};
	for (int k = 0; k < 3; k++) {
		const char *argv[] = {"/usr/bin/valgrind", "-q", tools[k], "--callgrind-out-file=/dev/null",
				      lt_loader(), "opt/prog", NULL};
		if (k != 1)
			argv[3] = lt_loader(), argv[4] = "opt/prog", argv[5] = NULL;
		struct run_result r;
		run_tool(&r, "weak", argv, 100);
		cr_expect(r.exited && r.exit_code == 0, "%s: %s\n%s", tools[k], run_describe(&r), r.err);
		cr_expect(strstr(r.out, "main: vague=w1-weak"), "%s: %s", tools[k], r.out);
		cr_expect(strstr(r.err, "launch record: held"), "%s:\n%s", tools[k], r.err);
		run_result_free(&r);
	}
}

Test(FP_SUITE(tools), valgrind_memcheck_on_optimized_programs, .timeout = 200)
{
	FP_NEEDS_TRACEABLE_PROCESS();
	valgrind_case("interpose", "opt/prog_exe", "user: greet=executable core_greet=executable sum=72");
	valgrind_case("tls", "opt/prog", "main: 11 ");
	valgrind_case("dlopen", "opt/prog", "dla_fn(3)=1060");
}

/* ------------------------------------------------- one mapping for both -- */

struct load { unsigned long long off, va, filesz, memsz; int w; };

/* The PT_LOAD entries of a file, as readelf prints them. */
static size_t loads_of(const char *path, struct load *l, size_t max)
{
	const char *argv[] = {"/usr/bin/readelf", "-lW", path, NULL};
	char *out = command_output(argv), *line = out;
	size_t n = 0;
	for (char *nl; line && *line && n < max; line = nl ? nl + 1 : 0) {
		nl = strchr(line, '\n');
		char flags[8] = "";
		if (sscanf(line, " LOAD %llx %llx %*x %llx %llx %7[RWE ]", &l[n].off, &l[n].va, &l[n].filesz,
			   &l[n].memsz, flags) == 5) {
			l[n].w = strchr(flags, 'W') != 0;
			n++;
		}
	}
	free(out);
	return n;
}

/* The system calls of the set trace (strace -e's argument) that the
 * loader makes running the resident fixture's opt/prog: strace's log. */
static char *strace_prog(const char *trace)
{
	char log[4200];
	snprintf(log, sizeof log, "%s/strace.log", lt_fixture_path("resident"));
	const char *argv[] = {"/usr/bin/strace", "-f", "-qq", "-e", trace, "-o", log, lt_loader(), "opt/prog", NULL};
	struct run_result r;
	run_tool(&r, "resident", argv, 60);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	run_result_free(&r);
	size_t len;
	char *s = must_read_file(log, &len);
	unlink(log);
	return s;
}

/* linkopt puts libbig.so's table segment on the page after its writable
 * segment, at the same distance between file offset and address: the
 * loader maps both with one mmap, and the table segment has none of its
 * own (strace sees the process's calls; not under valgrind, which would
 * have one a segment). */
Test(FP_SUITE(tools), table_segment_mapped_with_the_writable_one)
{
	FP_NEEDS_TRACEABLE_PROCESS();
	struct load l[16];
	size_t n = loads_of(lt_fixture_path("resident/opt/libbig.so"), l, 16);
	cr_assert_geq(n, 2, "libbig.so has %zu loadable segments", n);
	const struct load *w = &l[n - 2], *t = &l[n - 1];
	unsigned long long page = 4096, wend = (w->va + w->filesz + page - 1) & -page;
	cr_assert(w->w && t->w && t->va == wend && t->va - t->off == w->va - w->off && w->va + w->memsz <= wend,
		  "libbig.so's table segment (%#llx at %#llx) does not follow its writable one (%#llx at %#llx)",
		  t->va, t->off, w->va, w->off);
	char *s = strace_prog("trace=openat,mmap,mmap2"), *line = s;
	int fd = -1, joined = 0, own = 0;
	for (char *nl; line && *line; line = nl ? nl + 1 : 0) {
		nl = strchr(line, '\n');
		/* opened by its path or through its directory */
		const char *o = strstr(line, "libbig.so\", O_RDONLY|O_LARGEFILE|O_CLOEXEC) = ");
		if (o && (!nl || o < nl))
			fd = atoi(strstr(o, "= ") + 2);
		const char *m = strstr(line, "mmap");
		unsigned long long addr, size, off;
		int mfd;
		char prot[128];
		/* (strace shows mmap2's offset in bytes too) */
		if (fd < 0 || !m || (nl && m > nl) ||
		    sscanf(strchr(m, '('), "(%llx, %llu, %127[^,], %*[^,], %d, %llx)", &addr, &size, prot, &mfd,
			   &off) != 5 || mfd != fd)
			continue;
		joined |= off == (w->off & -page) && size >= t->va + t->filesz - (w->va & -page);
		own |= off == (t->off & -page);
	}
	cr_expect(fd >= 0, "libbig.so was not opened:\n%s", s);
	cr_expect(joined, "no mapping of libbig.so's writable segment reaching over its table segment:\n%s", s);
	cr_expect(!own, "libbig.so's table segment has a mapping of its own:\n%s", s);
	free(s);
}

/* Start-up opens each directory its search tries once and the libraries
 * in it through that descriptor, which is closed before the program runs
 * (strace: the directory opened with O_PATH, libbig.so opened relative to
 * it, the descriptor closed before the program's output is written). */
Test(FP_SUITE(tools), libraries_opened_through_their_directory)
{
	FP_NEEDS_TRACEABLE_PROCESS();
	char *s = strace_prog("trace=openat,close,write,writev"), *line = s;
	int dir = -1, through = 0, closed = 0, wrote = 0;
	char want[64] = "";
	for (char *nl; line && *line; line = nl ? nl + 1 : 0) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		const char *eq = strstr(line, ") = ");
		if (strstr(line, "openat(AT_FDCWD, \"opt\", ") && strstr(line, "O_PATH") && eq)
			dir = atoi(eq + 4);
		if (dir >= 0 && !wrote) {
			snprintf(want, sizeof want, "openat(%d, \"libbig.so\"", dir);
			through |= strstr(line, want) != 0;
			snprintf(want, sizeof want, "close(%d)", dir);
			closed |= strstr(line, want) != 0;
		}
		wrote |= (strstr(line, "write(1,") || strstr(line, "writev(1,")) != 0;
		if (nl)
			*nl = '\n';
	}
	cr_expect(dir >= 0, "the library directory was not opened:\n%s", s);
	cr_expect(through, "libbig.so was not opened through its directory:\n%s", s);
	cr_expect(closed, "the directory's descriptor was not closed before the program wrote:\n%s", s);
	free(s);
}
