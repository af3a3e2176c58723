#include "compare.h"
#include "fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LT_LOADER
#error "LT_LOADER (the loader under test) must be defined by the build"
#endif
#ifndef LT_FIXTURES
#error "LT_FIXTURES (the fixture directory) must be defined by the build"
#endif
#ifndef LT_MUSL_LDSO
#define LT_MUSL_LDSO "/lib/ld-musl-x86_64.so.1"
#endif

#define TIMEOUT_S 60

const char *lt_loader(void)
{
	const char *e = getenv("QB_TEST_LOADER");
	return e && *e ? e : LT_LOADER;
}

const char *lt_musl_ldso(void)
{
	return LT_MUSL_LDSO;
}

const char *lt_fixtures(void)
{
	return LT_FIXTURES;
}

const char *lt_fixture_path(const char *rel)
{
	return fixture_path(LT_FIXTURES, rel);
}

const char *lt_way_name(enum lt_way way)
{
	switch (way) {
	case LT_WAY_REF: return "reference";
	case LT_WAY_INTERP: return "PT_INTERP";
	case LT_WAY_DIRECT: return "direct invocation";
	}
	return "?";
}

void lt_run(struct run_result *r, const struct lt_case *c, enum lt_way way)
{
	char cwd[4096], prog[4096];
	const char *argv[64];
	int n = 0;
	int glibc_ref = way == LT_WAY_REF && c->ref == LT_REF_GLIBC;
	int plain_ref = way == LT_WAY_REF && c->ref == LT_REF_PLAIN;

	snprintf(cwd, sizeof cwd, "%s/%s%s", LT_FIXTURES, c->dir,
		 glibc_ref ? "/glibc" : plain_ref ? "/plain" : "");
	if (glibc_ref)
		snprintf(prog, sizeof prog, "./%s", c->prog);
	else
		snprintf(prog, sizeof prog, "./%s.%s", c->prog, way == LT_WAY_INTERP ? "qb" : "musl");

	if (way == LT_WAY_DIRECT)
		argv[n++] = lt_loader();
	argv[n++] = prog;
	for (const char *const *a = c->args; a && *a && n < 62; a++)
		argv[n++] = *a;
	argv[n] = NULL;

	char **env = env_build(run_base_env, (char *const *)c->env);
	struct run_opts o = {.cwd = cwd, .envp = env, .timeout_s = TIMEOUT_S};
	int rc = run_program(r, (char *const *)argv, &o);
	env_free(env);
	cr_assert(rc == 0, "harness could not run %s in %s", prog, cwd);
}

static void show(const char *what, const struct lt_case *c, enum lt_way way,
		 const struct run_result *r)
{
	cr_log_info("%s: %s/%s (%s): %s\n--- stdout:\n%s--- stderr:\n%s", what, c->dir,
		    c->prog, lt_way_name(way), run_describe(r), r->out, r->err);
}

int lt_expect_same(const struct lt_case *c)
{
	int matched = 0;
	struct run_result ref;
	lt_run(&ref, c, LT_WAY_REF);
	if (!(ref.exited && ref.exit_code == c->exit_status))
		show("reference failed", c, LT_WAY_REF, &ref);
	cr_assert(ref.exited && ref.exit_code == c->exit_status,
		  "the reference run of %s/%s failed (%s); the fixture is broken:\n%s",
		  c->dir, c->prog, run_describe(&ref), ref.err);

	for (enum lt_way w = LT_WAY_INTERP; w <= LT_WAY_DIRECT; w++) {
		struct run_result r;
		lt_run(&r, c, w);
		int same = r.exited && r.exit_code == ref.exit_code && !strcmp(r.out, ref.out) &&
			   (!c->compare_stderr || !strcmp(r.err, ref.err));
		if (!same)
			show("differs from the reference", c, w, &r);
		matched += same;
		cr_expect(r.exited, "%s/%s (%s, loader %s) did not exit normally: %s\nstderr:\n%s",
			  c->dir, c->prog, lt_way_name(w), lt_loader(), run_describe(&r), r.err);
		cr_expect(!r.exited || r.exit_code == ref.exit_code,
			  "%s/%s (%s): exit status %d, reference %d\nstderr:\n%s", c->dir, c->prog,
			  lt_way_name(w), r.exit_code, ref.exit_code, r.err);
		cr_expect(!strcmp(r.out, ref.out),
			  "%s/%s (%s): stdout differs\n--- reference:\n%s--- got:\n%s--- stderr:\n%s",
			  c->dir, c->prog, lt_way_name(w), ref.out, r.out, r.err);
		if (c->compare_stderr)
			cr_expect(!strcmp(r.err, ref.err),
				  "%s/%s (%s): stderr differs\n--- reference:\n%s--- got:\n%s",
				  c->dir, c->prog, lt_way_name(w), ref.err, r.err);
		run_result_free(&r);
	}
	run_result_free(&ref);
	return matched;
}

int lt_expect_load_error(const struct lt_case *c, const char *const *must_contain)
{
	int matched = 0;
	struct run_result ref;
	lt_run(&ref, c, LT_WAY_REF);
	cr_assert(!ref.timed_out, "reference run of %s/%s hung", c->dir, c->prog);
	cr_assert(c->ref_accepts || !(ref.exited && ref.exit_code == 0),
		  "the reference loader accepted the broken fixture %s/%s:\n%s", c->dir, c->prog,
		  ref.out);
	/* musl's loader dies of SIGBUS on some truncated files; that is the
	 * reference failing, and quickbind must do better, not the same. */
	cr_log_info("%s/%s reference: %s, stderr: %s", c->dir, c->prog, run_describe(&ref),
		    ref.err);

	for (enum lt_way w = LT_WAY_INTERP; w <= LT_WAY_DIRECT; w++) {
		struct run_result r;
		lt_run(&r, c, w);
		cr_expect(!r.signaled && !r.timed_out, "%s/%s (%s): killed: %s\nstderr:\n%s",
			  c->dir, c->prog, lt_way_name(w), run_describe(&r), r.err);
		cr_expect(r.exited && r.exit_code == 127,
			  "%s/%s (%s): expected exit status 127, got %s\nstderr:\n%s", c->dir,
			  c->prog, lt_way_name(w), run_describe(&r), r.err);
		cr_expect(r.out_len == 0, "%s/%s (%s): the program ran despite the error:\n%s",
			  c->dir, c->prog, lt_way_name(w), r.out);
		cr_expect(count_lines(r.err) == 1 && r.err_len > 0 && r.err[r.err_len - 1] == '\n',
			  "%s/%s (%s): expected exactly one stderr line, got:\n%s", c->dir,
			  c->prog, lt_way_name(w), r.err);
		/* a reason follows the object's name: "...NAME...: reason" */
		const char *at = must_contain && *must_contain ? strstr(r.err, *must_contain) : r.err;
		const char *colon = at ? strstr(at, ": ") : NULL;
		cr_expect(colon && strlen(colon + 2) > 4,
			  "%s/%s (%s): no reason after the object's name:\n%s", c->dir, c->prog,
			  lt_way_name(w), r.err);
		int ok = !r.signaled && r.exited && r.exit_code == 127 && r.out_len == 0 &&
			 count_lines(r.err) == 1 && colon && strlen(colon + 2) > 4;
		for (const char *const *m = must_contain; m && *m; m++) {
			cr_expect(strstr(r.err, *m) != NULL,
				  "%s/%s (%s): stderr does not mention '%s':\n%s", c->dir,
				  c->prog, lt_way_name(w), *m, r.err);
			ok = ok && strstr(r.err, *m);
		}
		matched += ok;
		run_result_free(&r);
	}
	run_result_free(&ref);
	return matched;
}
