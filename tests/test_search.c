/* Library search as musl 1.2.3's loader does it (issue 10, defect 2; the
 * reproduction is runpath-chain: a library's dependency found through the
 * RUNPATH of the program that loaded it). Every fixture of tests/search.mk
 * runs three ways on every configured architecture: NAME.musl under
 * musl's loader (the reference), NAME.qb (quickbind as PT_INTERP) and
 * quickbind run as a command on NAME.musl; outputs must be the expected
 * ones and the same. linkopt's search must find the files the loader
 * loads (its --list output). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/fixture.h"
#include "lib/run.h"
#include "appview.h"
#include "search.h"

enum { REF, QB_INTERP, QB_DIRECT, NRUNS };
static const char *const run_name[NRUNS] = { "musl", "quickbind as PT_INTERP", "quickbind as a command" };

static const char *loader(const char *arch)
{
	static char buf[2][PATH_MAX];
	char *p = buf[!strcmp(arch, "i386")];
	snprintf(p, PATH_MAX, "%s/ld-quickbind-%s.so.1", SRCH_LOADER_DIR, arch);
	return p;
}

static char *fixture_dir(const char *arch, const char *dir)
{
	return fixture_path(fixture_path(SRCH_DIR, arch), dir);
}

static void run_in(struct run_result *r, const char *cwd, char *const argv[], char *const env[])
{
	char *const base[] = { "PATH=/usr/bin:/bin", NULL };
	char **e = env_build(base, env);
	struct run_opts o = { .cwd = cwd, .envp = e, .timeout_s = 60 };
	cr_assert_eq(run_program(r, argv, &o), 0, "cannot run %s", argv[0]);
	env_free(e);
}

static void run3(const char *arch, const char *dir, const char *prog, char *const env[], struct run_result r[NRUNS])
{
	char musl[PATH_MAX], qb[PATH_MAX];
	snprintf(musl, sizeof musl, "./%s.musl", prog);
	snprintf(qb, sizeof qb, "./%s.qb", prog);
	const char *cwd = fixture_dir(arch, dir);
	char *a0[] = { musl, NULL };
	char *a1[] = { qb, NULL };
	char *a2[] = { (char *)loader(arch), musl, NULL };
	run_in(&r[REF], cwd, a0, env);
	run_in(&r[QB_INTERP], cwd, a1, env);
	run_in(&r[QB_DIRECT], cwd, a2, env);
}

static void free3(struct run_result r[NRUNS])
{
	for (int i = 0; i < NRUNS; i++)
		run_result_free(&r[i]);
}

/* musl prints expect and exits 0; quickbind's two runs do the same. */
static void expect_output(const char *arch, const char *dir, const char *prog, char *const env[], const char *expect)
{
	struct run_result r[NRUNS];
	run3(arch, dir, prog, env, r);
	for (int i = 0; i < NRUNS; i++) {
		cr_expect(r[i].exited && r[i].exit_code == 0, "%s %s/%s, %s: %s\nstderr: %s",
			  arch, dir, prog, run_name[i], run_describe(&r[i]), r[i].err);
		cr_expect_str_eq(r[i].out, expect, "%s %s/%s, %s: stdout", arch, dir, prog, run_name[i]);
	}
	free3(r);
}

/* The loader's --list, as "name path" lines with real paths, the
 * loader's own entries (musl's reserved names) left out. */
static char *loader_list(const char *arch, const char *dir, const char *prog, char *const env[])
{
	char musl[PATH_MAX];
	snprintf(musl, sizeof musl, "./%s.musl", prog);
	char *argv[] = { (char *)loader(arch), "--list", musl, NULL };
	struct run_result r;
	run_in(&r, fixture_dir(arch, dir), argv, env);
	cr_assert(r.exited && r.exit_code == 0, "%s --list %s: %s\n%s", arch, prog, run_describe(&r), r.err);
	size_t cap = r.out_len + 1, n = 0;
	char *out = calloc(1, cap * 2 + 1);
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		char name[PATH_MAX], path[PATH_MAX], real[PATH_MAX];
		if (sscanf(line, " %s => %s", name, path) != 2 || qb_search_reserved(name))
			continue;
		char full[2 * PATH_MAX + 2];
		if (path[0] == '/')
			snprintf(full, sizeof full, "%s", path);
		else
			snprintf(full, sizeof full, "%s/%s", fixture_dir(arch, dir), path);
		cr_assert(realpath(full, real), "%s: listed file %s missing", prog, full);
		n += (size_t)snprintf(out + n, cap * 2 + 1 - n, "%s %s\n", name, real);
	}
	run_result_free(&r);
	return out;
}

/* linkopt's closure of the same program, in the same form. */
static char *linkopt_list(const char *arch, const char *dir, const char *prog, const struct search_opts *so)
{
	char path[PATH_MAX], err[512];
	snprintf(path, sizeof path, "%s/%s.qb", fixture_dir(arch, dir), prog);
	struct elf e;
	cr_assert(elf_load_file(&e, path) == 0, "cannot read %s", path);
	struct closure c;
	int rc = closure_build(&e, so, &c, err, sizeof err);
	cr_assert(rc == 0, "linkopt's search for %s: %s", path, err);
	char *out = calloc(1, 65536);
	size_t n = 0;
	for (unsigned i = 1; i < c.n; i++) {
		const struct lib *l = &c.libs[i];
		const char *name = strrchr(l->path, '/') ? strrchr(l->path, '/') + 1 : l->path;
		char real[PATH_MAX];
		if (qb_search_reserved(name) || !strncmp(name, "ld-musl-", 8))
			continue;
		cr_assert(realpath(l->path, real));
		n += (size_t)snprintf(out + n, 65536 - n, "%s %s\n", name, real);
	}
	closure_free(&c);
	elf_free(&e);
	return out;
}

static void expect_prediction(const char *arch, const char *dir, const char *prog, char *const env[],
			      const struct search_opts *so, int nlibs)
{
	char *l = loader_list(arch, dir, prog, env), *p = linkopt_list(arch, dir, prog, so);
	cr_expect_str_eq(p, l, "%s %s/%s: linkopt's closure\n%s\ndiffers from the loader's --list\n%s",
			 arch, dir, prog, p, l);
	cr_expect_eq(count_lines(l), nlibs, "%s %s/%s: the loader lists %d libraries:\n%s", arch, dir, prog,
		     count_lines(l), l);
	free(l);
	free(p);
}

#define EACH_ARCH(a) \
	for (const char *const *a##_p = (const char *const[]){ "x86_64", "i386", NULL }; *a##_p; a##_p++) \
		for (const char *a = *a##_p; a && arch_configured(SRCH_ARCHS, a); a = NULL)

Test(search, runpath_chain_program_runpath_serves_its_libraries)
{
	EACH_ARCH(arch) {
		expect_output(arch, "chain", "main_runpath", NULL, "ca > cb\n");
		expect_output(arch, "chain", "main_rpath", NULL, "ca > cb\n");
	}
}

Test(search, runpath_chain_walks_every_object_up_to_the_program)
{
	EACH_ARCH(arch)
		expect_output(arch, "deep", "main", NULL, "da > db > dw-l2 > dz\n");
}

Test(search, runpath_chain_dlopen_starts_at_the_program)
{
	EACH_ARCH(arch)
		expect_output(arch, "dlopen", "main", NULL, "libdla.so: dla > dlb\nlibonly.so: not found\n");
}

Test(search, ld_library_path_before_rpath_and_runpath)
{
	EACH_ARCH(arch) {
		char *const env[] = { "LD_LIBRARY_PATH=b", NULL };
		expect_output(arch, "libpath", "prog_rpath", env, "b\n");
		expect_output(arch, "libpath", "prog_runpath", env, "b\n");
		expect_output(arch, "libpath", "prog_rpath", NULL, "a\n");
		expect_output(arch, "libpath", "prog_runpath", NULL, "a\n");
	}
}

Test(search, list_with_an_unknown_dollar_token_is_not_used)
{
	EACH_ARCH(arch) {
		struct run_result r[NRUNS];
		run3(arch, "dollar", "prog", NULL, r);
		cr_expect(r[REF].exited && r[REF].exit_code != 0, "musl: %s", run_describe(&r[REF]));
		for (int i = QB_INTERP; i < NRUNS; i++) {
			cr_expect(r[i].exited && r[i].exit_code == 127, "%s %s: %s", arch, run_name[i],
				  run_describe(&r[i]));
			cr_expect(count_lines(r[i].err) == 1 && strstr(r[i].err, "libdol.so") &&
				  strstr(r[i].err, "No such file"), "%s %s: stderr %s", arch, run_name[i], r[i].err);
			cr_expect_str_eq(r[i].out, "", "%s %s: stdout", arch, run_name[i]);
		}
		free3(r);
	}
}

Test(search, linkopt_finds_what_the_loader_loads)
{
	struct search_opts none = { 0 };
	EACH_ARCH(arch) {
		expect_prediction(arch, "chain", "main_runpath", NULL, &none, 2);
		expect_prediction(arch, "chain", "main_rpath", NULL, &none, 2);
		expect_prediction(arch, "deep", "main", NULL, &none, 4);
		expect_prediction(arch, "dlopen", "main", NULL, &none, 1);
		expect_prediction(arch, "libpath", "prog_rpath", NULL, &none, 1);
		/* linkopt's -L directories take LD_LIBRARY_PATH's place */
		char bdir[PATH_MAX];
		snprintf(bdir, sizeof bdir, "%s", fixture_dir(arch, "libpath/b"));
		const char *ldirs[] = { bdir };
		struct search_opts first = { .ldirs = ldirs, .nldirs = 1 };
		char lp[PATH_MAX + 32];
		snprintf(lp, sizeof lp, "LD_LIBRARY_PATH=%s", ldirs[0]);
		char *const env[] = { lp, NULL };
		expect_prediction(arch, "libpath", "prog_rpath", env, &first, 1);
		expect_prediction(arch, "libpath", "prog_runpath", env, &first, 1);
	}
}

Test(search, linkopt_fails_where_the_loader_fails)
{
	struct search_opts none = { 0 };
	EACH_ARCH(arch) {
		char path[PATH_MAX], err[512];
		snprintf(path, sizeof path, "%s/prog.qb", fixture_dir(arch, "dollar"));
		struct elf e;
		cr_assert(elf_load_file(&e, path) == 0);
		struct closure c;
		cr_expect(closure_build(&e, &none, &c, err, sizeof err) < 0, "%s: linkopt found libdol.so", arch);
		cr_expect(strstr(err, "libdol.so") != NULL, "%s: %s", arch, err);
		closure_free(&c);
		elf_free(&e);
	}
}

/* A library optimized alone is the top of its chain; given the program
 * above it, linkopt searches the program's RUNPATH too, as the loader. */
Test(search, linkopt_chain_above_a_library)
{
	EACH_ARCH(arch) {
		char lib[PATH_MAX], prog[PATH_MAX], err[512];
		snprintf(lib, sizeof lib, "%s/libca.so", fixture_dir(arch, "chain/lib"));
		snprintf(prog, sizeof prog, "%s/main_runpath.qb", fixture_dir(arch, "chain"));
		struct elf e;
		cr_assert(elf_load_file(&e, lib) == 0);
		struct closure c;
		struct search_opts alone = { 0 };
		cr_expect(closure_build(&e, &alone, &c, err, sizeof err) < 0,
			  "%s: libcb.so found without the program's RUNPATH", arch);
		closure_free(&c);
		struct qb_chain_link above = { .rpath = "$ORIGIN/lib", .path = prog, .program = 1 };
		struct search_opts chained = { .above = &above, .nabove = 1 };
		cr_assert(closure_build(&e, &chained, &c, err, sizeof err) == 0, "%s: %s", arch, err);
		int found = 0;
		for (unsigned i = 1; i < c.n; i++)
			found |= strstr(c.libs[i].path, "chain/lib/libcb.so") != NULL;
		cr_expect(found, "%s: libcb.so not in the closure of libca.so", arch);
		closure_free(&c);
		elf_free(&e);
	}
}
