/* The binding memo (ldso/bindmemo.c): a library loaded again after its
 * dlclose binds from what its last load bound, only when the files and
 * the lookup order are the same, and never changes what a program sees:
 * every case prints the same with the memo switched off
 * (LD_NOBINDMEMO=1), unloading stays real (constructors and destructors
 * run again, static data is fresh, the mapping goes away), and the
 * loader's statistics show when the memo was used. */
#include <stdio.h>
#include <stdlib.h>
#include "runtime/check.h"

/* No LD_LIBRARY_PATH: libqmuser.so finds libqmdep.so beside itself
 * ($ORIGIN), in the private directory where `memo replace` swaps it. */
/* LD_NOREOPEN=1: an unloaded image goes away at dlclose (the reopen
 * cache would keep it mapped; test_runtime_reopen runs these cases with
 * it). */
static const char *const plain_env[] = {"QBR_MEMO=1", "LD_NOREOPEN=1", NULL};
static const char *const off_env[] = {"LD_NOBINDMEMO=1", "LD_NOREOPEN=1", NULL};
static const char *const stats_env[] = {"LD_DEBUG=statistics", "LD_NOREOPEN=1", NULL};
static const char *const verify_env[] = {"LD_DEBUG=statistics", "LD_DIRECT_VERIFY=1", "LD_NOREOPEN=1", NULL};

#define LOAD(who, value, data, which, lib) \
	who " ctor\n" who ": value " #value " data " #data " which " which " calls 1\n" who " dtor\n" \
	lib " mapped 0\n"
#define USER(value, data, which) LOAD("user", value, data, which, "libqmuser.so")

/* Both quickbind runs of `memo c` under env print exactly expected;
 * with stats, the final memo_recorded and memo_reused counts too. */
static void expect_memo(const char *c, const char *const *env, const char *expected, long recorded,
	long reused)
{
	struct lt_case lc = {.dir = ".", .prog = "memo", .args = ARGS(c), .env = env};
	for (enum lt_way w = LT_WAY_INTERP; w <= LT_WAY_DIRECT; w++) {
		struct run_result r;
		lt_run(&r, &lc, w);
		cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, expected),
			  "memo %s (%s, %s): %s, printed:\n%s--- expected:\n%s--- stderr:\n%s", c, env[0],
			  lt_way_name(w), run_describe(&r), r.out, expected, r.err);
		if (recorded >= 0) {
			cr_expect_eq(qbr_last_stat(r.err, "memo_recorded"), recorded,
				     "memo %s (%s): memo_recorded, stderr:\n%s", c, lt_way_name(w), r.err);
			cr_expect_eq(qbr_last_stat(r.err, "memo_reused"), reused,
				     "memo %s (%s): memo_reused, stderr:\n%s", c, lt_way_name(w), r.err);
		}
		if (env == verify_env)
			cr_expect(strstr(r.err, "verify_differences=0") && !strstr(r.err, "verify: "),
				  "memo %s (%s): the standard lookup disagrees:\n%s", c, lt_way_name(w), r.err);
		if (env == off_env)
			cr_expect(!strstr(r.err, "memo_"), "memo %s: memo used while switched off", c);
		run_result_free(&r);
	}
}

/* The memo on, off, verified against the standard lookup, counted. */
static void expect_all(const char *c, const char *expected, long recorded, long reused)
{
	expect_memo(c, plain_env, expected, -1, -1);
	expect_memo(c, off_env, expected, -1, -1);
	expect_memo(c, stats_env, expected, recorded, reused);
	expect_memo(c, verify_env, expected, recorded, reused);
}

/* One load and its dlclose bind as under musl's loader (whose dlclose
 * unloads nothing: the destructor runs at exit, after the same lines). */
Test(memo, one_load_binds_as_musl)
{
	struct lt_case c = {.dir = ".", .prog = "memo", .args = ARGS("once"), .env = plain_env};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must match musl's loader");
}

/* Three loads: the first records (libqmuser.so and libqmdep.so), the
 * others bind from the memo, each a fresh object. */
Test(memo, reload_binds_identically_and_unloads)
{
	expect_all("reopen", USER(1, 10, "dep") USER(1, 10, "dep") USER(1, 10, "dep"), 2, 4);
}

/* libqmdep.so replaced by another file (other values, other symbol
 * indices): its new definitions bind, recorded afresh; then libqmuser.so
 * replaced: recorded afresh too, and reused once the files stay. */
Test(memo, replaced_file_is_not_reused)
{
	expect_all("replace",
		   USER(1, 10, "dep") USER(1, 10, "dep") USER(2, 20, "dep")
		   LOAD("user2", 2, 20, "dep", "libqmuser.so") LOAD("user2", 2, 20, "dep", "libqmuser.so"),
		   6, 4);
}

/* libqmglob.so opened RTLD_GLOBAL between two loads comes first in the
 * lookup order: mv_which binds to it (the memo of the earlier order is not
 * reused). It stays loaded after its dlclose, pinned by the binding, so
 * the last load binds to it again, from the memo. */
Test(memo, global_object_loaded_in_between_interposes)
{
	expect_all("global",
		   USER(1, 10, "dep") USER(1, 10, "dep") USER(1, 10, "glob") USER(1, 10, "glob")
		   USER(1, 10, "glob"),
		   5, 6);
}

/* An LD_PRELOAD object comes first in every load, memo or not. */
Test(memo, preload_binds_first_in_every_load)
{
	static char pre[512];
	snprintf(pre, sizeof pre, "LD_PRELOAD=%s", lt_fixture_path("libqmpre.so"));
	const char *const env[] = {pre, "LD_NOREOPEN=1", NULL};
	const char *const off[] = {pre, "LD_NOBINDMEMO=1", "LD_NOREOPEN=1", NULL};
	const char *const st[] = {pre, "LD_DEBUG=statistics", "LD_NOREOPEN=1", NULL};
	const char *expected = USER(7, 10, "dep") USER(7, 10, "dep") USER(7, 10, "dep");
	expect_memo("reopen", env, expected, -1, -1);
	expect_memo("reopen", off, expected, -1, -1);
	expect_memo("reopen", st, expected, 2, 4);
}

/* Ten libraries in turn, then the last and the first again: the memos
 * kept are bounded (8, oldest dropped first), so the last one's is
 * reused (with libqmdep.so's, recorded in its scope) and the first one's
 * is gone: 10 + 10 recorded, 2 reused, then 2 more recorded. */
Test(memo, kept_memos_are_bounded)
{
	char expected[4096] = "";
	for (int k = 0; k < 10; k++) {
		char lib[32], one[256];
		snprintf(lib, sizeof lib, "libqmuser%d.so", k);
		snprintf(one, sizeof one, LOAD("user", 1, 10, "dep", "%s"), lib);
		strcat(expected, one);
	}
	strcat(expected, "again\n" LOAD("user", 1, 10, "dep", "libqmuser9.so")
			 "first\n" LOAD("user", 1, 10, "dep", "libqmuser0.so"));
	expect_memo("many", stats_env, expected, 22, 2);
	expect_memo("many", off_env, expected, -1, -1);
}
