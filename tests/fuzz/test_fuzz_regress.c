/* The regression corpus (tests/fuzz/regress/): every input that once
 * crashed a fuzz target or the loader or linkopt, and the hostile files of
 * issue 11's reproductions. Each file goes, on both architectures,
 * through the loader
 *   - as a needed library (of a program run through PT_INTERP and by
 *     direct invocation),
 *   - as a dlopened library (both ways too),
 *   - as the program itself (direct invocation; through PT_INTERP when it
 *     has a PT_INTERP to point at the loader),
 * and through linkopt (--dump, --check, -o, in place; the plain build and
 * the ASan+UBSan one). Whatever the file, nothing dies of a signal, a
 * refusal is exit 127 (loader) or 2 (linkopt) with exactly one line, and
 * linkopt leaves its input byte-identical unless it rewrote it. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <elf.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/run.h"
#include "lib/shell.h"

#ifndef FZR_CORPUS
#error "FZR_CORPUS, FZR_FIXTURES, FZR_LINKOPT, FZR_LINKOPT_ASAN and the loaders come from tests/fuzz.mk"
#endif

#define MAXFILES 512
static char *files[MAXFILES];
static int nfiles;

static int collect(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_F && !strstr(path, "README") && nfiles < MAXFILES)
		files[nfiles++] = strdup(path);
	return 0;
}

static void corpus(void)
{
	if (!nfiles)
		cr_assert_eq(nftw(FZR_CORPUS, collect, 16, FTW_PHYS), 0, "cannot read %s", FZR_CORPUS);
	cr_assert_gt(nfiles, 0, "the regression corpus %s is empty", FZR_CORPUS);
}

static void spill(const char *path, const unsigned char *b, size_t n, mode_t mode)
{
	unlink(path);
	FILE *f = fopen(path, "wb");
	cr_assert(f && fwrite(b, 1, n, f) == n && !fclose(f), "cannot write %s", path);
	chmod(path, mode);
}

/* short: PT_INTERP is patched to point into it */
#define TMPDIR_TEMPLATE "/tmp/qbfzXXXXXX"

static void rmtree(char *d)
{
	cr_assert_eq(shell_status("rm -rf '%s'", d), 0);
	free(d);
}

static char *dirname_of(const char *path)
{
	static char d[4096];
	snprintf(d, sizeof d, "%s", path);
	char *s = strrchr(d, '/');
	if (s)
		*s = 0;
	return d;
}

/* The directory the file's libraries are found in: into/libs, holding
 * each lib*.elf beside the file as lib*.so (the names its DT_NEEDED
 * entries use; kept as .elf, they are not taken for build outputs). */
static const char *libdir_for(const char *path, const char *into)
{
	static char libs[4200];
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", dirname_of(path));
	snprintf(libs, sizeof libs, "%s/libs", into);
	cr_assert_eq(mkdir(libs, 0755), 0, "cannot make %s", libs);
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "cannot read %s", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "lib", 3) || len < 5 || strcmp(e->d_name + len - 4, ".elf"))
			continue;
		char from[4400], to[4400];
		snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
		snprintf(to, sizeof to, "%s/%.*s.so", libs, (int)(len - 4), e->d_name);
		size_t n;
		char *b = must_read_file(from, &n);
		spill(to, (const unsigned char *)b, n, 0755);
		free(b);
	}
	closedir(d);
	return libs;
}

static const char *rel(const char *path)
{
	return path + strlen(FZR_CORPUS) + 1;
}

/* ------------------------------------------------------------- loader --- */

struct arch {
	const char *name, *loader;
	int elfclass;
};
static const struct arch archs[] = {
	{ "x86_64", FZR_LOADER_x86_64, ELFCLASS64 },
	{ "i386", FZR_LOADER_i386, ELFCLASS32 },
};

/* A loader's run: no hang; refusal is 127 and one line; no signal unless
 * the loader accepted the objects (`accepted`: its --list run of the same
 * thing succeeded), in which case their own code ran and may fault (a
 * library with its entry point on its ELF header, say). --list runs none
 * of their code: there a signal is always the loader's. */
static void expect_loader_run(const char *file, const char *how, struct run_result *r, int accepted)
{
	cr_expect(!r->timed_out && (!r->signaled || accepted), "%s, %s: %s\nstderr:\n%s", file, how,
		  run_describe(r), r->err);
	if (r->signaled)
		cr_log_info("%s, %s: accepted by the loader, then its own code died: %s", file, how,
			    run_describe(r));
	if (r->exited && r->exit_code == 127)
		cr_expect_eq(count_lines(r->err), 1, "%s, %s: refused, but not in one line:\n%s", file,
			     how, r->err);
	run_result_free(r);
}

/* The list mode goes on past a library it cannot load, and past a
 * symbol not found, as musl's ldd does: a refusal there is one line per
 * failure, each naming an object of the run's directory dir or the
 * library name `lib` (a message split over lines leaves a line that
 * names neither). */
static void expect_list_run(const char *file, const char *how, struct run_result *r, const char *dir,
			    const char *lib)
{
	cr_expect(!r->timed_out && !r->signaled, "%s, %s: %s\nstderr:\n%s", file, how, run_describe(r), r->err);
	if (r->exited && r->exit_code == 127) {
		cr_expect(count_lines(r->err) >= 1, "%s, %s: refused without a reason", file, how);
		for (const char *l = r->err; *l;) {
			size_t n = strcspn(l, "\n");
			cr_expect(memmem(l, n, dir, strlen(dir)) || memmem(l, n, lib, strlen(lib)),
				  "%s, %s: a line of the refusal names no object:\n%s", file, how, r->err);
			l += n + (l[n] == '\n');
		}
	}
	run_result_free(r);
}

static void run_in(struct run_result *r, char **argv, const char *libpath)
{
	char env[8300];
	snprintf(env, sizeof env, "LD_LIBRARY_PATH=%s", libpath);
	char *envp[] = { env, "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
	struct run_opts o = { .envp = envp, .timeout_s = 30 };
	cr_assert_eq(run_program(r, argv, &o), 0, "cannot run %s", argv[0]);
}

/* The offset and size of the file's PT_INTERP string, if it has one. */
static int interp_of(const unsigned char *b, size_t n, size_t *off, size_t *len)
{
	if (n < sizeof(Elf64_Ehdr) || memcmp(b, ELFMAG, SELFMAG))
		return 0;
	int wide = b[EI_CLASS] == ELFCLASS64;
	Elf64_Ehdr e64;
	Elf32_Ehdr e32;
	memcpy(&e64, b, sizeof e64);
	memcpy(&e32, b, sizeof e32);
	uint64_t phoff = wide ? e64.e_phoff : e32.e_phoff;
	unsigned phnum = wide ? e64.e_phnum : e32.e_phnum;
	size_t entsz = wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	for (unsigned i = 0; i < phnum; i++) {
		uint64_t at = phoff + (uint64_t)i * entsz;
		if (at > n || entsz > n - at)
			return 0;
		Elf64_Phdr p;
		if (wide) {
			memcpy(&p, b + at, sizeof p);
		} else {
			Elf32_Phdr q;
			memcpy(&q, b + at, sizeof q);
			p.p_type = q.p_type;
			p.p_offset = q.p_offset;
			p.p_filesz = q.p_filesz;
		}
		if (p.p_type == PT_INTERP) {
			if (p.p_offset > n || p.p_filesz > n - p.p_offset)
				return 0;
			*off = p.p_offset;
			*len = p.p_filesz;
			return 1;
		}
	}
	return 0;
}

static void loader_runs(const struct arch *a)
{
	corpus();
	char need[4096], need_m[4096], dlo[4096], dlo_m[4096];
	snprintf(need, sizeof need, "%s/%s/need.qb", FZR_FIXTURES, a->name);
	snprintf(need_m, sizeof need_m, "%s/%s/need.musl", FZR_FIXTURES, a->name);
	snprintf(dlo, sizeof dlo, "%s/%s/dlopen.qb", FZR_FIXTURES, a->name);
	snprintf(dlo_m, sizeof dlo_m, "%s/%s/dlopen.musl", FZR_FIXTURES, a->name);
	unsigned runs = 0;
	for (int i = 0; i < nfiles; i++) {
		const char *f = rel(files[i]);
		size_t n;
		unsigned char *b = (unsigned char *)must_read_file(files[i], &n);
		char *d = make_tmpdir(TMPDIR_TEMPLATE), lib[128], prog[128], libpath[8300];
		snprintf(lib, sizeof lib, "%s/libfzr.so", d);
		snprintf(prog, sizeof prog, "%s/prog", d);
		spill(lib, b, n, 0755);
		spill(prog, b, n, 0755);
		/* a program of the corpus finds the libraries it came with */
		snprintf(libpath, sizeof libpath, "%s:%s", d, libdir_for(files[i], d));
		struct run_result r;
		char *l1[] = { (char *)a->loader, "--list", need_m, NULL };
		run_in(&r, l1, libpath);
		int lib_ok = r.exited && r.exit_code == 0;
		expect_list_run(f, "needed library, --list", &r, d, "libfzr.so");
		char *v1[] = { need, NULL };
		run_in(&r, v1, libpath);
		expect_loader_run(f, "needed library, PT_INTERP", &r, lib_ok);
		char *v2[] = { (char *)a->loader, need_m, NULL };
		run_in(&r, v2, libpath);
		expect_loader_run(f, "needed library, direct", &r, lib_ok);
		char *v3[] = { dlo, lib, NULL };
		run_in(&r, v3, libpath);
		cr_expect((r.exited && r.exit_code == 0 && count_lines(r.out) == 1) || (lib_ok && r.signaled) ||
			  (r.exited && r.exit_code == 127 && count_lines(r.err) == 1),
			  "%s, dlopen, PT_INTERP: %s\nstdout:\n%sstderr:\n%s", f, run_describe(&r), r.out, r.err);
		run_result_free(&r);
		char *v4[] = { (char *)a->loader, dlo_m, lib, NULL };
		run_in(&r, v4, libpath);
		cr_expect((r.exited && r.exit_code == 0 && count_lines(r.out) == 1) || (lib_ok && r.signaled) ||
			  (r.exited && r.exit_code == 127 && count_lines(r.err) == 1),
			  "%s, dlopen, direct: %s\nstdout:\n%sstderr:\n%s", f, run_describe(&r), r.out, r.err);
		run_result_free(&r);
		char *l2[] = { (char *)a->loader, "--list", prog, NULL };
		run_in(&r, l2, libpath);
		int prog_ok = r.exited && r.exit_code == 0;
		expect_list_run(f, "program, --list", &r, d, "libfzr.so");
		char *v5[] = { (char *)a->loader, prog, NULL };
		run_in(&r, v5, libpath);
		expect_loader_run(f, "program, direct", &r, prog_ok);
		runs += 7;
		/* Through PT_INTERP: a file of this class that has one, pointed
		 * at this loader through a link short enough to fit. */
		size_t io, il;
		char link[128];
		snprintf(link, sizeof link, "%s/l", d);
		if (n > EI_CLASS && b[EI_CLASS] == a->elfclass && interp_of(b, n, &io, &il) &&
		    il > strlen(link)) {
			cr_assert_eq(symlink(a->loader, link), 0);
			memset(b + io, 0, il);
			memcpy(b + io, link, strlen(link));
			spill(prog, b, n, 0755);
			char *v6[] = { prog, NULL };
			run_in(&r, v6, libpath);
			expect_loader_run(f, "program, PT_INTERP", &r, prog_ok);
			runs++;
		}
		free(b);
		rmtree(d);
	}
	cr_log_info("%s: %d files, %u loader runs", a->name, nfiles, runs);
}

Test(fuzz_regress, loader_x86_64, .timeout = 600)
{
	loader_runs(&archs[0]);
}

Test(fuzz_regress, loader_i386, .timeout = 600)
{
	if (!*archs[1].loader)
		cr_skip_test("i386 is not configured (no i386 loader built)");
	loader_runs(&archs[1]);
}

/* ------------------------------------------------------------ linkopt --- */

static void expect_linkopt(const char *file, const char *how, struct run_result *r, int max_ok)
{
	cr_expect(!r->signaled && !r->timed_out, "%s, linkopt %s: %s\nstderr:\n%s", file, how,
		  run_describe(r), r->err);
	cr_expect(r->exited && r->exit_code >= 0 && r->exit_code <= 2 &&
		  (r->exit_code <= max_ok || r->exit_code == 2),
		  "%s, linkopt %s: %s\nstderr:\n%s", file, how, run_describe(r), r->err);
	if (r->exited && r->exit_code == 2)
		cr_expect_eq(count_lines(r->err), 1, "%s, linkopt %s: error not in one line:\n%s", file,
			     how, r->err);
}

static void linkopt_runs(const char *linkopt)
{
	corpus();
	if (access(linkopt, X_OK))
		cr_assert_fail("%s is missing", linkopt);
	for (int i = 0; i < nfiles; i++) {
		const char *f = rel(files[i]);
		size_t n, m;
		unsigned char *b = (unsigned char *)must_read_file(files[i], &n);
		char *d = make_tmpdir(TMPDIR_TEMPLATE), in[128], out[128], inplace[128], ldir[4200];
		snprintf(in, sizeof in, "%s/in.so", d);
		snprintf(out, sizeof out, "%s/out.so", d);
		snprintf(inplace, sizeof inplace, "%s/inplace.so", d);
		snprintf(ldir, sizeof ldir, "-L%s", libdir_for(files[i], d));
		spill(in, b, n, 0755);
		spill(inplace, b, n, 0755);
		struct run_result r;
		const char *modes[] = { "--dump", "--check", "-o" };
		for (int k = 0; k < 3; k++) {
			char *v[] = { (char *)linkopt, ldir, (char *)modes[k], k == 2 ? out : in, k == 2 ? in : NULL, NULL };
			cr_assert_eq(run_program(&r, v, &(struct run_opts){ .timeout_s = 60 }), 0);
			expect_linkopt(f, modes[k], &r, k == 1 ? 1 : 0);
			int wrote = k == 2 && r.exited && r.exit_code == 0;
			run_result_free(&r);
			unsigned char *c = (unsigned char *)must_read_file(in, &m);
			cr_expect(m == n && !memcmp(b, c, n), "%s: linkopt %s changed its input", f, modes[k]);
			free(c);
			if (wrote) {
				/* what linkopt wrote, linkopt reads */
				char *w[] = { (char *)linkopt, ldir, "--check", out, NULL };
				cr_assert_eq(run_program(&r, w, &(struct run_opts){ .timeout_s = 60 }), 0);
				expect_linkopt(f, "--check on its own output", &r, 1);
				run_result_free(&r);
			}
		}
		char *v[] = { (char *)linkopt, ldir, inplace, NULL };
		cr_assert_eq(run_program(&r, v, &(struct run_opts){ .timeout_s = 60 }), 0);
		expect_linkopt(f, "(in place)", &r, 0);
		if (!(r.exited && r.exit_code == 0)) {
			unsigned char *c = (unsigned char *)must_read_file(inplace, &m);
			cr_expect(m == n && !memcmp(b, c, n), "%s: linkopt failed in place but changed the file", f);
			free(c);
		}
		run_result_free(&r);
		free(b);
		rmtree(d);
	}
}

Test(fuzz_regress, linkopt, .timeout = 600)
{
	linkopt_runs(FZR_LINKOPT);
}

Test(fuzz_regress, linkopt_asan, .timeout = 600)
{
	linkopt_runs(FZR_LINKOPT_ASAN);
}
