/* Issue 10, defect 1 (tests/tls-pointer-init/): TLS initializers that hold
 * addresses must reach every thread relocated, on TI_ARCH. Each program
 * runs under musl's loader and under quickbind (PT_INTERP, direct
 * invocation); stdout and exit status must match. The programs check the
 * values themselves too (an "ok" per thread and object). */
#include <criterion/criterion.h>
#include <string.h>

#include "lib/compare.h"

static const char *const here[] = {"LD_LIBRARY_PATH=.", NULL};

static void same(const char *prog, const char *must_print)
{
	struct lt_case c = {.dir = ".", .prog = prog, .env = here};
	cr_assert_eq(lt_expect_same(&c), 2, "%s (" TI_ARCH "): both quickbind runs must match musl", prog);
	struct run_result r;
	lt_run(&r, &c, LT_WAY_INTERP);
	cr_expect(strstr(r.out, must_print), "%s: expected \"%s\" in:\n%s", prog, must_print, r.out);
	cr_expect(!strstr(r.out, "BAD"), "%s: a thread saw a wrong TLS value:\n%s", prog, r.out);
	run_result_free(&r);
}

/* The reported program: static __thread const char *s = "x" in a PIE. */
Test(tls_pointer_init, pie_program)
{
	same("exe", "x\n");
}

Test(tls_pointer_init, non_pie_program)
{
	same("exe-nopie", "x\n");
}

/* The reported library case: the initializer lives in a needed library. */
Test(tls_pointer_init, needed_library)
{
	same("main", "libstr\n");
}

/* Relative and symbolic relocations in .tdata of the program, a needed
 * library and a dlopened one; read by the main thread, a thread created
 * before the dlopen and one created after. */
Test(tls_pointer_init, threads_and_dlopen)
{
	same("thr", "late: dl ok dlstr 11 7\n");
}
