/* What musl's loader does not do (it rejects IRELATIVE and IFUNC symbols,
 * ignores symbol versions and DT_PREINIT_ARRAY) but quickbind must: the
 * reference is the same source built with the host's glibc toolchain, run
 * by glibc's loader of the same architecture. Compiled once per
 * architecture (see loader/arch.h). */
#include <criterion/criterion.h>

#include "arch.h"
#include "lib/compare.h"

static const char *const here[] = {"LD_LIBRARY_PATH=.", NULL};

Test(LT_SUITE(loader_ext), ifunc_in_executable_and_library)
{
	struct lt_case c = {.dir = "ifunc", .prog = "prog", .env = here, .ref = LT_REF_GLIBC};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(LT_SUITE(loader_ext), symbol_version_old_binding)
{
	/* linked when vfunc had only VER_1: must keep getting VER_1 */
	struct lt_case c = {.dir = "symver", .prog = "prog_old", .env = here, .ref = LT_REF_GLIBC};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(LT_SUITE(loader_ext), symbol_version_default_binding)
{
	struct lt_case c = {.dir = "symver", .prog = "prog_new", .env = here, .ref = LT_REF_GLIBC};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(LT_SUITE(loader_ext), preinit_array_runs_first)
{
	struct lt_case c = {.dir = "preinit", .prog = "prog", .env = here, .ref = LT_REF_GLIBC};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}
