/* dlopen as a transaction and dlclose: what a dlopen changed is undone
 * when it fails or its object is unloaded, and what the program still
 * uses is not unloaded. Compiled once per architecture (see fpcommon.h);
 * fixtures in tests/fastpath/unload/. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpcommon.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The interposer-unload reproduction, run under quickbind on libuser.so
 * optimized by linkopt (bound directly to libdef.so, so that only the
 * interposer list can redirect it). */
static void run_ipmain(struct run_result *r, const char *mode)
{
	struct fp_run qb = {.dir = "unload", .prog = "ipmain", .libpath = "opt:.", .args = ARGS(mode)};
	fp_exec(r, fp_loader(), &qb);
	cr_assert(r->exited, "ipmain %s under quickbind: %s\nstderr:\n%s", mode, run_describe(r), r->err);
}

static void expect_same_ipmain(const char *mode, const char *must)
{
	struct fp_run ref = {.dir = "unload", .prog = "ipmain", .libpath = ".", .args = ARGS(mode)};
	struct fp_run qb = {.dir = "unload", .prog = "ipmain", .libpath = "opt:.", .args = ARGS(mode)};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.out, must), "ipmain %s: no '%s' in:\n%s", mode, must, r.out);
	run_result_free(&r);
}

Test(FP_SUITE(unload), fixtures_are_of_the_architecture)
{
	fp_expect_arch("unload/opt/libuser.so");
	fp_expect_arch("unload/libip.so");
	cr_assert_eq(dump_flags("unload/opt/libuser.so", "shared_fn"), 0x0001,
		     "libuser's shared_fn is not bound directly to libdef: the tests would prove nothing");
}

/* interposer-unload, main: dlopen(RTLD_GLOBAL) of an interposer, then
 * dlclose. quickbind unloads it (musl never unloads: it still interposes
 * there); a later direct binding must not consult the freed object. */
Test(FP_SUITE(unload), interposer_unload_dlclose_leaves_the_interposer_list)
{
	struct run_result r;
	run_ipmain(&r, "close");
	cr_expect(r.exit_code == 0 && !strcmp(r.out, "libip.so: opened\nuser()=1\nlibip.so still loaded: no\n"),
		  "ipmain close: %s\n%s\nstderr:\n%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);
}

/* interposer-unload, main2: the interposer's relocation fails; the undo
 * must take it out of the interposer list, and the debugger's list must
 * be consistent again. */
Test(FP_SUITE(unload), interposer_unload_failed_dlopen_leaves_the_interposer_list)
{
	expect_same_ipmain("rollback", "libipbad.so: failed\nafter the failure: r_state 0, libipbad.so loaded no\n"
				       "user()=1\n");
}

/* A failed dlopen(RTLD_GLOBAL) of a library needing one already loaded
 * RTLD_LOCAL: the promotion of that one to the global scope is undone
 * (its symbols are not global; as an interposer it redirects nothing). */
Test(FP_SUITE(unload), failed_dlopen_undoes_promotion_to_global)
{
	expect_same_ipmain("promote", "ip_marker global: no\nuser()=1\n");
}

/* dlopen(RTLD_GLOBAL) of an interposer already loaded RTLD_LOCAL makes it
 * an interposer from then on, as a first load would. */
Test(FP_SUITE(unload), reopening_an_interposer_global_makes_it_interpose)
{
	expect_same_ipmain("reopen_global", "user()=2\n");
}
