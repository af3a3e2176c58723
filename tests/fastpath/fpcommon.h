/* Shared by the fast-path suites: run a fixture under musl's loader (the
 * reference: the plain build) and under quickbind (the linkopt-optimized
 * copy), compare, and read the loader's LD_DEBUG=statistics counters. */
#ifndef QB_FPCOMMON_H
#define QB_FPCOMMON_H

#include "harness.h"

/* One run of a fixture. dir is relative to the fixture root and is the
 * working directory; prog and the entries of libpath (':'-separated,
 * relative to dir) name files in it. env: extra NAME=value entries. */
struct fp_run {
	const char *dir;
	const char *prog;
	const char *libpath;
	const char *const *env;
	const char *const *args;
};

const char *fp_fixture(const char *rel);  /* absolute, static rotating buffer */
const char *fp_loader(void);
const char *fp_linkopt(void);

/* Runs prog by direct invocation of loader (musl's or quickbind) with a
 * fixed minimal environment plus run->env. */
void fp_exec(struct run_result *r, const char *loader, const struct fp_run *run);

/* Reference: musl's loader on ref; quickbind on qb with LD_DEBUG=statistics
 * added. Asserts both end by exit with the same status (0 for the
 * reference) and the same stdout; qb's result is left in *out (free it). */
void fp_expect_same(const struct fp_run *ref, const struct fp_run *qb, struct run_result *out);

/* Value of counter key ("direct_hits") on the statistics lines of stderr
 * printed at `when` ("start-up", "dlopen"; the last such line counts).
 * Fails the test when the counter is absent. */
long fp_stat(const char *err, const char *when, const char *key);

/* stdout of a host command (asserted to exit 0); free it. */
char *fp_command_output(const char *const *argv);

#endif
