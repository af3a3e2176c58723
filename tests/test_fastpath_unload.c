/* dlopen as a transaction and dlclose: what a dlopen changed is undone
 * when it fails or its object is unloaded, and what the program still
 * uses is not unloaded (LD_DLCLOSE=unload, docs/DIFFERENCES.md). Compiled once per architecture (see fpcommon.h);
 * fixtures in tests/fastpath/unload/. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpcommon.h"
#include "lib/run.h"

/* unloading is what these tests check */
QBT_UNLOAD_MODE

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The interposer-unload reproduction, run under quickbind on libuser.so
 * optimized by linkopt (bound directly to libdef.so, so that only the
 * interposer list can redirect it). */
static void run_ipmain(struct run_result *r, const char *mode)
{
	struct fp_run qb = {.dir = "unload", .prog = "ipmain", .libpath = "opt:.", .args = ARGS(mode)};
	fp_exec(r, lt_loader(), &qb);
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

/* ../shared/repro/dl: t_dl.c as dlmain.c. musl never unloads; quickbind
 * must keep these libraries for the same output. */
static void expect_same_dlmain(const char *mode, const char *lib, const char *must, struct run_result *r)
{
	struct fp_run run = {.dir = "unload", .prog = "dlmain", .libpath = ".", .args = ARGS(mode, lib)};
	fp_expect_same(&run, &run, r);
	cr_expect(strstr(r->out, must), "dlmain %s: no '%s' in:\n%s", mode, must, r->out);
}

/* A pointer from dlsym(RTLD_DEFAULT) into a library opened RTLD_GLOBAL,
 * called after the library's only handle is closed. */
Test(FP_SUITE(unload), dlclose_keeps_a_library_reached_through_rtld_default)
{
	struct run_result r;
	expect_same_dlmain("default", "./libplain.so",
			   "before: 4\nafter dlclose: 4\n./libplain.so loaded after dlclose: yes\n", &r);
	run_result_free(&r);
}

/* The library registered a pthread_atfork handler: the next fork runs it. */
Test(FP_SUITE(unload), dlclose_keeps_a_library_with_fork_handlers)
{
	struct run_result r;
	expect_same_dlmain("atfork", "./libatfork.so", "fork ok\n./libatfork.so loaded after dlclose: yes\n", &r);
	cr_expect(strstr(r.err, "prepare handler ran\n"), "the fork handler did not run:\n%s", r.err);
	run_result_free(&r);
}

/* __cxa_atexit(puts, object in the library, the library's __dso_handle):
 * the handler's code is libc's, its argument the library's. */
Test(FP_SUITE(unload), dlclose_keeps_a_library_named_by_an_exit_handler)
{
	struct run_result r;
	expect_same_dlmain("exit", "./libcxa.so",
			   "./libcxa.so loaded after dlclose: yes\nobject living in the dlclosed library\n", &r);
	run_result_free(&r);
}

/* The rule is not "never unload": a library reached only through its
 * handle goes when the handle is closed. */
Test(FP_SUITE(unload), dlclose_unloads_a_library_reached_only_through_its_handle)
{
	struct fp_run qb = {.dir = "unload", .prog = "dlmain", .libpath = ".", .args = ARGS("handle", "./libplain.so")};
	struct run_result r;
	fp_exec(&r, lt_loader(), &qb);
	cr_expect(r.exited && r.exit_code == 0 &&
		  !strcmp(r.out, "through the handle: 4\n./libplain.so loaded after dlclose: no\n"),
		  "dlmain handle: %s\n%s\nstderr:\n%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);
}

/* libw3's vague references bound through their scope definer (libw1) in
 * a dlopen, walked without the global table and checked against the
 * standard lookup (LD_DIRECT_VERIFY); libw3 unloaded (libw2 and libw3 go;
 * libw1 stays, libw2 bound a symbol to it), a strong definition of those
 * names made global after libw1, libw3 loaded again: every walk of either
 * load, those answered again included, gives the standard lookup's
 * definition, libw1's. */
Test(FP_SUITE(unload), scope_definer_walks_agree_with_the_lookup_across_an_unload)
{
	struct fp_run qb = {.dir = "weak", .prog = "dlprog", .libpath = "opt:.",
			    .env = ENV("LD_GLOBALTAB=0", "LD_DIRECT_VERIFY=1", "LD_DEBUG=statistics,libs")};
	struct run_result r;
	fp_exec(&r, lt_loader(), &qb);
	cr_assert(r.exited, "dlprog under quickbind: %s\nstderr:\n%s", run_describe(&r), r.err);
	cr_expect(r.exit_code == 0 &&
			  !strcmp(r.out, "first: w3: vague=w1-weak wdata=1 typeinfo=w1-typeinfo\n"
					 "second: w3: vague=w1-weak wdata=1 typeinfo=w1-typeinfo\n"),
		  "dlprog: %s\n%s\nstderr:\n%s", run_describe(&r), r.out, r.err);
	const char *load = strstr(r.err, "loaded file=opt/libw3.so");
	cr_expect(load && strstr(load + 1, "loaded file=opt/libw3.so"),
		  "libw3 was not unloaded and loaded again:\n%s", r.err);
	cr_expect_geq(fp_stat(r.err, "dlopen", "scope_definers"), 4,
		      "libw3's references were not bound through their scope definer twice:\n%s", r.err);
	cr_expect_eq(fp_stat(r.err, "dlopen", "verify_differences"), 0, "%s", r.err);
	run_result_free(&r);
}
