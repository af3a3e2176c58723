#include "fpcommon.h"
#include "lib/stats.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FP_LINKOPT
#error "FP_LINKOPT must be defined by the build"
#endif

#define TIMEOUT_S 30

const char *fp_linkopt(void)
{
	return FP_LINKOPT;
}

void fp_exec(struct run_result *r, const char *loader, const struct fp_run *run)
{
	char cwd[4096], prog[4096], libpath[4200];
	const char *argv[32];
	const char *extra[32];
	int n = 0, e = 0;

	snprintf(cwd, sizeof cwd, "%s", lt_fixture_path(run->dir));
	snprintf(prog, sizeof prog, "./%s", run->prog);
	argv[n++] = loader;
	argv[n++] = prog;
	for (const char *const *a = run->args; a && *a && n < 31; a++)
		argv[n++] = *a;
	argv[n] = NULL;

	if (run->libpath) {
		snprintf(libpath, sizeof libpath, "LD_LIBRARY_PATH=%s", run->libpath);
		extra[e++] = libpath;
	}
	if (!run->record)
		extra[e++] = "LD_NORECORD=1";
	for (const char *const *v = run->env; v && *v && e < 31; v++)
		extra[e++] = *v;
	extra[e] = NULL;
	char **env = env_build(run_base_env, (char *const *)extra);
	cr_assert(env, "out of memory");
	struct run_opts o = {.cwd = cwd, .envp = env, .timeout_s = TIMEOUT_S};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0, "cannot run %s", prog);
	env_free(env);
}

void fp_expect_same(const struct fp_run *ref, const struct fp_run *qb, struct run_result *out)
{
	struct run_result m;
	fp_exec(&m, lt_musl_ldso(), ref);
	cr_assert(m.exited && m.exit_code == 0, "reference %s/%s under musl: %s\n%s",
		  ref->dir, ref->prog, run_describe(&m), m.err);

	const char *env[24];
	int e = 0;
	int debug_given = 0;
	for (const char *const *v = qb->env; v && *v && e < 22; v++) {
		env[e++] = *v;
		debug_given |= !strncmp(*v, "LD_DEBUG=", 9);
	}
	if (!debug_given)
		env[e++] = "LD_DEBUG=statistics";
	env[e] = NULL;
	struct fp_run q = *qb;
	q.env = env;
	fp_exec(out, lt_loader(), &q);
	cr_assert(out->exited, "%s/%s under quickbind: %s\nstderr:\n%s", qb->dir, qb->prog,
		  run_describe(out), out->err);
	cr_assert_eq(out->exit_code, m.exit_code, "%s/%s: exit %d under quickbind, %d under musl\nstderr:\n%s",
		     qb->dir, qb->prog, out->exit_code, m.exit_code, out->err);
	cr_assert_str_eq(out->out, m.out, "%s/%s: stdout differs from musl's\nstderr:\n%s",
			 qb->dir, qb->prog, out->err);
	run_result_free(&m);
}

long fp_stat(const char *err, const char *when, const char *key)
{
	long val = ld_stat(err, when, key);
	cr_assert(val >= 0, "no %s counter in the %s statistics:\n%s", key, when, err);
	return val;
}

unsigned dump_flags(const char *file, const char *name)
{
	const char *argv[] = {fp_linkopt(), "--dump", lt_fixture_path(file), NULL};
	char *out = command_output(argv);
	cr_assert(strstr(out, FP_DUMP_CLASS), "%s is not reported as a " FP_DUMP_CLASS " file:\n%s", file, out);
	char pat[128];
	snprintf(pat, sizeof pat, " %s\n", name);
	char *p = strstr(out, pat);
	cr_assert(p, "no syminfo entry for %s in the dump of %s:\n%s", name, file, out);
	char *line = p;
	while (line > out && line[-1] != '\n')
		line--;
	char *flags = strstr(line, " 0x");
	cr_assert(flags && flags < p, "no flags for %s in: %.*s", name, (int)(p - line), line);
	unsigned v = (unsigned)strtoul(flags + 1, NULL, 16);
	free(out);
	return v;
}

void fp_expect_arch(const char *file)
{
	const char *argv[] = {"/usr/bin/readelf", "-h", lt_fixture_path(file), NULL};
	char *out = command_output(argv);
	cr_assert(strstr(out, FP_ELF_CLASS) && strstr(out, FP_ELF_MACHINE),
		  "%s is not an " FP_ELF_CLASS " " FP_ELF_MACHINE " file:\n%s", file, out);
	free(out);
}
