/* dlclose unloading where the pinning of bound-to objects matters (see
 * the pin of bindings): an object bound to from outside its own
 * dependency closure must stay while the binder stays; an object bound to
 * only from objects that depend on it must not be pinned (the rule is
 * qb_pin_binding in ldso/dlopen.c). */
#include "runtime/check.h"
#include "lib/run.h"

/* unloading is what these tests check */
QBT_UNLOAD_MODE

/* A dependency whose own handle was closed goes with the last object
 * that needs it. */
Test(dl, dlclose_of_dependent_unloads_closed_dependency)
{
	cr_assert_eq(qbr_expect_qb("rt", ARGS("unload_dep"), NULL,
		      "ctor dep\nctor mid\nctor top\nmid closed, needed by top: loaded 1\n"
		      "dtor top\ndtor mid\ndtor dep\ntop closed: top 0 mid 0 dep 0\n"), 2, "both quickbind runs must pass");
}

/* libqrsiba.so binds to libqrsibb.so only through the scope of the root
 * that needs both; with the root closed, libqrsiba.so (still open) must
 * keep libqrsibb.so mapped, pinned or counted. */
Test(dl, dlclose_keeps_objects_bound_through_the_roots_scope)
{
	struct lt_case c = {.dir = ".", .prog = "rt", .args = ARGS("unload_sibling"), .env = qbr_here};
	static const char *const must[] = {"through root 7\n", "root closed: root 0 a 1\n",
					   "a after root closed 7\n", "a closed: a 0\n", NULL};
	for (enum lt_way w = LT_WAY_INTERP; w <= LT_WAY_DIRECT; w++) {
		struct run_result r;
		lt_run(&r, &c, w);
		cr_expect(r.exited && r.exit_code == 0, "rt unload_sibling (%s): %s\n%s",
			  lt_way_name(w), run_describe(&r), r.out);
		for (const char *const *m = must; *m; m++)
			cr_expect(strstr(r.out, *m), "rt unload_sibling (%s): no line '%s' in:\n%s",
				  lt_way_name(w), *m, r.out);
		run_result_free(&r);
	}
}
