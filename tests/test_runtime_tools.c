/* The loader seen by tools and users: gdb (r_debug, breakpoints in a
 * dlopened library), valgrind, ldd mode and the command line, compared
 * with musl's loader where it has the feature. */
#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "runtime/check.h"

static char *const tool_env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", "LD_LIBRARY_PATH=.", NULL};

static void run_in_fixtures(struct run_result *r, const char *const *argv, char *const *env, int timeout)
{
	struct run_opts o = {.cwd = lt_fixtures(), .envp = env, .timeout_s = timeout};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0, "cannot run %s", argv[0]);
}

static void gdb_session(const char *prog, const char *ldso)
{
	const char *argv[] = {"/usr/bin/gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off",
			      "-ex", "set breakpoint pending on", "-ex", "break fn_in_lib", "-ex", "run",
			      "-ex", "info sharedlibrary", "-ex", "continue", prog, NULL};
	struct run_result r;
	run_in_fixtures(&r, argv, tool_env, 60);
	cr_expect(r.exited && r.exit_code == 0, "gdb %s: %s\n%s%s", prog, run_describe(&r), r.out, r.err);
	cr_expect(strstr(r.out, "Breakpoint 1, fn_in_lib"), "gdb %s did not stop in fn_in_lib:\n%s%s",
		  prog, r.out, r.err);
	const char *info = strstr(r.out, "Shared Object Library");
	cr_expect(info, "gdb %s: no 'info sharedlibrary' table:\n%s%s", prog, r.out, r.err);
	static const char *const libs[] = {"libqrdep.so", "libqrgdb.so", NULL};
	for (const char *const *l = libs; info && *l; l++)
		cr_expect(strstr(info, *l), "gdb %s: 'info sharedlibrary' lacks %s:\n%s", prog, *l, info);
	cr_expect(info && strstr(info, ldso), "gdb %s: 'info sharedlibrary' lacks the loader %s:\n%s",
		  prog, ldso, info);
	cr_expect(strstr(r.out, "fn_in_lib(1) = 2"), "gdb %s: the program did not finish:\n%s", prog, r.out);
	run_result_free(&r);
}

Test(tools, gdb_lists_libraries_and_breaks_in_a_dlopened_one, .timeout = 150)
{
	gdb_session("./gdbprog.musl", lt_musl_ldso());
	gdb_session("./gdbprog.qb", lt_loader());
}

Test(tools, valgrind_runs_dlopen_and_dlclose_under_the_loader, .timeout = 150)
{
	static const char *const cases[] = {"deps", "unload", "fail", NULL};
	for (const char *const *c = cases; *c; c++) {
		const char *argv[] = {"/usr/bin/valgrind", "-q", "--error-exitcode=99", lt_loader(),
				      "./rt.musl", *c, NULL};
		struct run_result r;
		run_in_fixtures(&r, argv, tool_env, 120);
		cr_expect(r.exited && r.exit_code == 0, "valgrind %s rt %s: %s\n%s", lt_loader(), *c,
			  run_describe(&r), r.err);
		cr_expect(strstr(r.out, *c[0] == 'f' ? "baddep alone: 9" : "dtor dep"),
			  "valgrind rt %s: output incomplete:\n%s", *c, r.out);
		run_result_free(&r);
	}
}

/* ldd output with addresses and the loader's own path made neutral,
 * after checking every line has the form musl's ldd prints. */
static char *normalize_ldd(const char *out, const char *ldso)
{
	regex_t line;
	cr_assert(regcomp(&line, "^\t([^ ]+ => )?[^ ]+ \\(0x[0-9a-f]+\\)$", REG_EXTENDED | REG_NOSUB) == 0);
	size_t cap = strlen(out) + 4096, n = 0;
	char *res = calloc(1, cap);
	char *copy = strdup(out), *save = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(0, "\n", &save)) {
		cr_expect(regexec(&line, l, 0, 0, 0) == 0, "not an ldd line: '%s' in\n%s", l, out);
		char *paren = strrchr(l, '(');
		if (paren)
			*paren = 0;
		const char *at = strstr(l, ldso);
		if (at)
			n += snprintf(res + n, cap - n, "%.*sLDSO%s(ADDR)\n", (int)(at - l), l,
				      at + strlen(ldso));
		else
			n += snprintf(res + n, cap - n, "%s(ADDR)\n", l);
	}
	free(copy);
	regfree(&line);
	return res;
}

static char *ldd_of(const char *ldso, const char *prog, int as_ldd)
{
	char dir[] = "/tmp/qbr-ldd-XXXXXX", link[64];
	cr_assert(mkdtemp(dir));
	snprintf(link, sizeof link, "%s/ldd", dir);
	cr_assert(symlink(ldso, link) == 0);
	char path_env[4200];
	snprintf(path_env, sizeof path_env, "LD_LIBRARY_PATH=%s", lt_fixtures());
	char *const env[] = {"PATH=/usr/bin:/bin", path_env, NULL};
	const char *ldd_argv[] = {link, prog, NULL};
	const char *list_argv[] = {ldso, "--list", prog, NULL};
	struct run_result r;
	run_in_fixtures(&r, as_ldd ? ldd_argv : list_argv, env, 30);
	unlink(link);
	rmdir(dir);
	cr_expect(r.exited && r.exit_code == 0 && r.err_len == 0, "%s %s %s: %s\n%s",
		  as_ldd ? "ldd as" : "--list of", ldso, prog, run_describe(&r), r.err);
	cr_expect(!strstr(r.out, "argv0"), "ldd mode ran the program:\n%s", r.out);
	/* Both loaders, like musl's, go by the program's PT_INTERP (musl's
	 * loader for lddprog.musl), whatever file they were run from. */
	char *n = normalize_ldd(r.out, lt_musl_ldso());
	run_result_free(&r);
	return n;
}

Test(tools, ldd_mode_prints_what_musls_ldd_prints)
{
	char *ref = ldd_of(lt_musl_ldso(), "./lddprog.musl", 1);
	cr_expect(strstr(ref, "\tlibqrmid.so => ") && strstr(ref, "\tlibc.so => LDSO (ADDR)"),
		  "musl's ldd output is not as expected:\n%s", ref);
	char *got = ldd_of(lt_loader(), "./lddprog.musl", 1);
	cr_expect(!strcmp(got, ref), "ldd differs\n--- musl:\n%s--- quickbind:\n%s", ref, got);
	char *list = ldd_of(lt_loader(), "./lddprog.musl", 0);
	cr_expect(!strcmp(list, ref), "--list differs\n--- musl:\n%s--- quickbind:\n%s", ref, list);
	free(ref);
	free(got);
	free(list);
}

static void expect_same_invocation(const char *const *opts, const char *must)
{
	const char *argv[16];
	struct run_result ref, r;
	for (int w = 0; w < 2; w++) {
		int n = 0;
		argv[n++] = w ? lt_loader() : lt_musl_ldso();
		for (const char *const *o = opts; *o; o++)
			argv[n++] = *o;
		argv[n] = NULL;
		run_in_fixtures(w ? &r : &ref, argv, run_base_env, 30);
	}
	cr_expect(ref.exited && ref.exit_code == 0 && strstr(ref.out, must),
		  "musl's loader with %s: %s\n%s%s", opts[0], run_describe(&ref), ref.out, ref.err);
	cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, ref.out),
		  "quickbind with %s: %s\n--- musl:\n%s--- quickbind:\n%s%s", opts[0], run_describe(&r),
		  ref.out, r.out, r.err);
	run_result_free(&ref);
	run_result_free(&r);
}

Test(tools, library_path_option)
{
	expect_same_invocation(ARGS("--library-path", lt_fixtures(), "./lddprog.musl"),
			       "top_value 112 dep_value 1\n");
}

Test(tools, preload_option_comes_first_in_the_global_scope)
{
	expect_same_invocation(ARGS("--library-path", lt_fixtures(), "--preload", "libqrpre.so",
				    "./lddprog.musl"), "top_value 308 dep_value 99\n");
}

Test(tools, argv0_option)
{
	expect_same_invocation(ARGS("--library-path", lt_fixtures(), "--argv0", "custom-name",
				    "./lddprog.musl"), "argv0 custom-name\n");
}

Test(tools, help_and_version)
{
	struct run_result r;
	run_in_fixtures(&r, ARGS(lt_loader(), "--help"), run_base_env, 10);
	cr_expect(r.exited && r.exit_code == 0, "--help: %s", run_describe(&r));
	static const char *const opts[] = {"--list", "--library-path", "--preload", "--argv0", "PROGRAM", NULL};
	for (const char *const *o = opts; *o; o++)
		cr_expect(strstr(r.out, *o), "--help does not mention %s:\n%s", *o, r.out);
	run_result_free(&r);
	run_in_fixtures(&r, ARGS(lt_loader(), "--version"), run_base_env, 10);
	cr_expect(r.exited && r.exit_code == 0 && count_lines(r.out) == 1 && strstr(r.out, "quickbind"),
		  "--version: %s\n%s", run_describe(&r), r.out);
	run_result_free(&r);
	run_in_fixtures(&r, ARGS(lt_loader(), "--no-such-option", "./lddprog.musl"), run_base_env, 10);
	cr_expect(r.exited && r.exit_code != 0 && strstr(r.err, "--no-such-option") && !r.out_len,
		  "unknown option: %s\n%s%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);
}
