/* Runs one fixture program three ways and compares them:
 *   reference  NAME.musl under musl's loader (or, for what musl's loader
 *              cannot do, the glibc build under glibc's loader)
 *   interp     NAME.qb, whose PT_INTERP is the loader under test
 *   direct     <loader under test> ./NAME.musl args
 * The loader under test is QB_LOADER (set by tests/loader.mk from
 * QB_TEST_LOADER), overridable for direct invocation by the environment
 * variable QB_TEST_LOADER. */
#ifndef QB_LOADER_COMPARE_H
#define QB_LOADER_COMPARE_H

#include "harness.h"

enum qb_ref { QB_REF_MUSL, QB_REF_GLIBC };
enum qb_way { QB_WAY_REF, QB_WAY_INTERP, QB_WAY_DIRECT };

struct qb_case {
	const char *dir;           /* fixture directory under QB_FIXTURES, the cwd */
	const char *prog;          /* program path in dir, without .musl/.qb */
	const char *const *args;   /* NULL-terminated; may be NULL */
	const char *const *env;    /* NAME=value on top of a fixed minimal env */
	enum qb_ref ref;           /* QB_REF_GLIBC: reference is dir/glibc/prog */
	int compare_stderr;
	int ref_accepts;           /* musl's loader does not check what is broken */
};

const char *qb_loader(void);
const char *qb_fixtures(void);
const char *qb_musl_ldso(void);   /* the reference loader */
/* Absolute path of a file under QB_FIXTURES, in a static rotating buffer. */
const char *qb_fixture_path(const char *rel);

void qb_run(struct run_result *r, const struct qb_case *c, enum qb_way way);
const char *qb_way_name(enum qb_way way);

/* Reference exits 0; interp and direct match its exit status and stdout
 * (and stderr when asked) and end by exit, not by a signal. */
int qb_expect_same(const struct qb_case *c);  /* quickbind runs that matched */

/* Reference fails (any non-zero end, unless ref_accepts); interp and direct exit 127, not by a
 * signal, print nothing on stdout, and print exactly one stderr line that
 * contains every string of must_contain (NULL-terminated): the object's
 * name and the reason. */
int qb_expect_load_error(const struct qb_case *c, const char *const *must_contain);
/* both return how many of the two quickbind runs (PT_INTERP, direct) passed */

#endif
