#include "fpcommon.h"
#include "lib/fixture.h"
#include "lib/stats.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(FP_LOADER) || !defined(FP_FIXTURES) || !defined(FP_MUSL_LDSO) || !defined(FP_LINKOPT)
#error "FP_LOADER, FP_FIXTURES, FP_MUSL_LDSO and FP_LINKOPT must be defined by the build"
#endif

#define TIMEOUT_S 30

const char *fp_fixture(const char *rel)
{
	return fixture_path(FP_FIXTURES, rel);
}

const char *fp_loader(void)
{
	return FP_LOADER;
}

const char *fp_linkopt(void)
{
	return FP_LINKOPT;
}

const char *fp_musl_ldso(void)
{
	return FP_MUSL_LDSO;
}

void fp_exec(struct run_result *r, const char *loader, const struct fp_run *run)
{
	char cwd[4096], prog[4096], libpath[4200];
	const char *argv[32];
	const char *extra[32];
	int n = 0, e = 0;

	snprintf(cwd, sizeof cwd, "%s/%s", FP_FIXTURES, run->dir);
	snprintf(prog, sizeof prog, "./%s", run->prog);
	argv[n++] = loader;
	argv[n++] = prog;
	for (const char *const *a = run->args; a && *a && n < 31; a++)
		argv[n++] = *a;
	argv[n] = NULL;

	extra[e++] = "PATH=/usr/bin:/bin";
	extra[e++] = "LC_ALL=C";
	if (run->libpath) {
		snprintf(libpath, sizeof libpath, "LD_LIBRARY_PATH=%s", run->libpath);
		extra[e++] = libpath;
	}
	for (const char *const *v = run->env; v && *v && e < 31; v++)
		extra[e++] = *v;
	extra[e] = NULL;
	char **env = env_build(NULL, (char *const *)extra);
	cr_assert(env, "out of memory");
	struct run_opts o = {.cwd = cwd, .envp = env, .timeout_s = TIMEOUT_S};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0, "cannot run %s", prog);
	env_free(env);
}

void fp_expect_same(const struct fp_run *ref, const struct fp_run *qb, struct run_result *out)
{
	struct run_result m;
	fp_exec(&m, FP_MUSL_LDSO, ref);
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
	fp_exec(out, FP_LOADER, &q);
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

char *fp_command_output(const char *const *argv)
{
	struct run_result r;
	cr_assert(run_program(&r, (char *const *)argv, NULL) == 0, "cannot run %s", argv[0]);
	cr_assert(r.exited && r.exit_code == 0, "%s: %s\n%s", argv[0], run_describe(&r), r.err);
	free(r.err);
	return r.out;
}

int has_line(const char *s, const char *a, const char *b)
{
	for (const char *line = s; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *pa = strstr(line, a), *pb = strstr(line, b);
		if (pa && pb && pa < line + len && pb < line + len)
			return 1;
		line = end ? end + 1 : NULL;
	}
	return 0;
}

unsigned dump_flags(const char *file, const char *name)
{
	const char *argv[] = {fp_linkopt(), "--dump", fp_fixture(file), NULL};
	char *out = fp_command_output(argv);
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
	const char *argv[] = {"/usr/bin/readelf", "-h", fp_fixture(file), NULL};
	char *out = fp_command_output(argv);
	cr_assert(strstr(out, FP_ELF_CLASS) && strstr(out, FP_ELF_MACHINE),
		  "%s is not an " FP_ELF_CLASS " " FP_ELF_MACHINE " file:\n%s", file, out);
	free(out);
}
