/* Runs one fixture program three ways and compares them:
 *   reference  NAME.musl under musl's loader (or, for what musl's loader
 *              cannot do, the glibc build under glibc's loader)
 *   interp     NAME.qb, whose PT_INTERP is the loader under test
 *   direct     <loader under test> ./NAME.musl args
 * The loader under test is LT_LOADER (set by tests/loader.mk from
 * QB_TEST_LOADER), overridable for direct invocation by the environment
 * variable QB_TEST_LOADER. */
#ifndef QB_TESTS_LIB_COMPARE_H
#define QB_TESTS_LIB_COMPARE_H

#include "run.h"

/* LT_REF_PLAIN: the reference is dir/plain/prog.musl, the same sources
 * linked without a feature musl's loader lacks (DT_RELR). */
enum lt_ref { LT_REF_MUSL, LT_REF_GLIBC, LT_REF_PLAIN };
enum lt_way { LT_WAY_REF, LT_WAY_INTERP, LT_WAY_DIRECT };

struct lt_case {
	const char *dir;           /* fixture directory under LT_FIXTURES, the cwd */
	const char *prog;          /* program path in dir, without .musl/.qb */
	const char *const *args;   /* NULL-terminated; may be NULL */
	const char *const *env;    /* NAME=value on top of a fixed minimal env */
	enum lt_ref ref;           /* LT_REF_GLIBC: reference is dir/glibc/prog */
	int compare_stderr;
	int ref_accepts;           /* musl's loader does not check what is broken */
	int exit_status;           /* the reference's exit status (lt_expect_same) */
};

const char *lt_loader(void);
const char *lt_fixtures(void);
const char *lt_musl_ldso(void);   /* the reference loader */
/* Absolute path of a file under LT_FIXTURES, in a static rotating buffer. */
const char *lt_fixture_path(const char *rel);

void lt_run(struct run_result *r, const struct lt_case *c, enum lt_way way);
const char *lt_way_name(enum lt_way way);

/* Reference exits with exit_status (0 unless set); interp and direct match its exit status and stdout
 * (and stderr when asked) and end by exit, not by a signal. */
int lt_expect_same(const struct lt_case *c);  /* quickbind runs that matched */

/* Reference fails (any non-zero end, unless ref_accepts); interp and direct exit 127, not by a
 * signal, print nothing on stdout, and print exactly one stderr line that
 * contains every string of must_contain (NULL-terminated): the object's
 * name and the reason. */
int lt_expect_load_error(const struct lt_case *c, const char *const *must_contain);
/* both return how many of the two quickbind runs (PT_INTERP, direct) passed */

#endif
