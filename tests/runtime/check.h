/* Helpers shared by the test_runtime_* suites (host side, Criterion):
 * run a fixture of build/tests/runtime under musl's loader and quickbind
 * (tests/lib/compare.c, built for this directory), or under quickbind
 * alone for what musl's loader does not do. */
#ifndef QBR_CHECK_H
#define QBR_CHECK_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "lib/compare.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static const char *const qbr_here[] = {"LD_LIBRARY_PATH=.", NULL};

/* Reference, PT_INTERP and direct runs agree, and the reference printed
 * exactly `expected` (so that agreement is about the behaviour asked
 * for, not about two loaders failing alike). */
static inline int qbr_expect(const char *prog, const char *const *args, const char *expected)
{
	struct lt_case c = {.dir = ".", .prog = prog, .args = args, .env = qbr_here};
	struct run_result ref;
	lt_run(&ref, &c, LT_WAY_REF);
	cr_expect(ref.exited && ref.exit_code == 0 && !strcmp(ref.out, expected),
		  "%s %s under musl's loader (%s) printed:\n%s--- expected:\n%s--- stderr:\n%s",
		  prog, args ? args[0] : "", run_describe(&ref), ref.out, expected, ref.err);
	run_result_free(&ref);
	return lt_expect_same(&c);
}

/* quickbind only (PT_INTERP and direct): exit 0 and exactly `expected`. */
static inline int qbr_expect_qb(const char *prog, const char *const *args,
				const char *const *env, const char *expected)
{
	int matched = 0;
	struct lt_case c = {.dir = ".", .prog = prog, .args = args, .env = env ? env : qbr_here};
	for (enum lt_way w = LT_WAY_INTERP; w <= LT_WAY_DIRECT; w++) {
		struct run_result r;
		lt_run(&r, &c, w);
		matched += r.exited && r.exit_code == 0 && !strcmp(r.out, expected);
		cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, expected),
			  "%s %s (%s): %s, printed:\n%s--- expected:\n%s--- stderr:\n%s", prog,
			  args ? args[0] : "", lt_way_name(w), run_describe(&r), r.out, expected, r.err);
		run_result_free(&r);
	}
	return matched;
}

/* The last value of `key=` in the loader's statistics (stderr), -1 if
 * none. */
static inline long qbr_last_stat(const char *err, const char *key)
{
	long v = -1;
	size_t k = strlen(key);
	for (const char *s = err; (s = strstr(s, key)); s += k)
		if (s[k] == '=')
			v = strtol(s + k + 1, 0, 10);
	return v;
}

#endif
