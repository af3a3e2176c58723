/* The reopen cache (ldso/reopen.c): a library dlclose unloads stays
 * mapped, and a reload of the same file takes that image. What the
 * program sees is a fresh load all the same: initialized data, relocated
 * pointers, bss and constructor effects as the file and the current
 * lookup order make them, RELRO read-only; bindings follow a change of
 * the lookup order; the cache is bounded. Each case runs with the cache
 * and without it (LD_NOREOPEN=1): the lines are the same, except that a
 * parked image is still mapped after dlclose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/check.h"

static const char *const on_env[] = {"LD_LIBRARY_PATH=.", "LD_DEBUG=statistics", NULL};
static const char *const off_env[] = {"LD_LIBRARY_PATH=.", "LD_DEBUG=statistics", "LD_NOREOPEN=1", NULL};

#define FRESH(fp, data) "ctor dep\nfresh: counter 105 ctors 1 bss 0 fp " #fp " data " #data \
	" relro points r--p\ndtor dep\n"

/* `prog args` prints expected with the cache on and off, run both ways;
 * with it on, the statistics count reopened images and those restored
 * without relocation (-1: not checked). */
static void expect_reopen(const char *prog, const char *const *args, const char *expected,
	long reopened, long restored)
{
	for (int on = 1; on >= 0; on--) {
		struct lt_case lc = {.dir = ".", .prog = prog, .args = args, .env = on ? on_env : off_env};
		for (enum lt_way w = LT_WAY_INTERP; w <= LT_WAY_DIRECT; w++) {
			struct run_result r;
			lt_run(&r, &lc, w);
			cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, expected),
				  "%s %s (cache %s, %s): %s, printed:\n%s--- expected:\n%s--- stderr:\n%s", prog,
				  args[0], on ? "on" : "off", lt_way_name(w), run_describe(&r), r.out, expected,
				  r.err);
			if (on && reopened >= 0) {
				cr_expect_eq(qbr_last_stat(r.err, "images_reopened"), reopened,
					     "%s %s (%s): images_reopened, stderr:\n%s", prog, args[0],
					     lt_way_name(w), r.err);
				cr_expect_eq(qbr_last_stat(r.err, "images_restored"), restored,
					     "%s %s (%s): images_restored, stderr:\n%s", prog, args[0],
					     lt_way_name(w), r.err);
			}
			if (!on)
				cr_expect(!strstr(r.err, "images_"), "%s %s: images reopened while switched off:\n%s",
					  prog, args[0], r.err);
			run_result_free(&r);
		}
	}
}

/* Four loads: the last three take the images of libqrfresh.so and
 * libqrdep.so and restore them; each starts as the first did. */
Test(reopen, every_load_starts_fresh)
{
	expect_reopen("reopen", ARGS("fresh", "4"),
		      FRESH(1, 4) FRESH(1, 4) FRESH(1, 4) FRESH(1, 4), 6, 6);
}

/* libqrfreshglob.so joins the global scope before the third load: that
 * load and its dependency take their images but are relocated from the
 * file (the lookup order changed), binding dep_value and dep_array to
 * it; the fourth load restores the images relocated so. */
Test(reopen, global_object_in_between_rebinds)
{
	expect_reopen("reopen", ARGS("global"), FRESH(1, 4) FRESH(1, 4) FRESH(2, 40) FRESH(2, 40), 6, 4);
}

/* Thirty cycles hold no more mappings than one. */
Test(reopen, cycles_do_not_grow_the_mappings)
{
	char expected[30 * 18 + 64] = "";
	for (int i = 0; i < 30; i++)
		strcat(expected, "ctor dep\ndtor dep\n");
	strcat(expected, "no more mappings than after one cycle\n");
	expect_reopen("reopen", ARGS("loop", "30"), expected, 58, 58);
}

/* The binding memo's cases (test_runtime_memo: files replaced, a global
 * object in between, more libraries than images kept) print the same with
 * the cache and without, but for the image still mapped after dlclose. */
static void same_as_without(const char *c)
{
	const char *const on[] = {"QBR_MEMO=1", NULL}, *const off[] = {"LD_NOREOPEN=1", NULL};
	struct lt_case lon = {.dir = ".", .prog = "memo", .args = ARGS(c), .env = on};
	struct lt_case loff = {.dir = ".", .prog = "memo", .args = ARGS(c), .env = off};
	for (enum lt_way w = LT_WAY_INTERP; w <= LT_WAY_DIRECT; w++) {
		struct run_result a, b;
		lt_run(&a, &lon, w);
		lt_run(&b, &loff, w);
		cr_assert(a.exited && a.exit_code == 0 && b.exited && b.exit_code == 0,
			  "memo %s (%s): %s / %s\n%s\n%s", c, lt_way_name(w), run_describe(&a),
			  run_describe(&b), a.err, b.err);
		cr_expect(strstr(b.out, "mapped 0\n") && !strstr(b.out, "mapped 1\n"),
			  "memo %s without the cache: an image still mapped after dlclose:\n%s", c, b.out);
		for (char *s; (s = strstr(b.out, "mapped 0\n"));)
			s[7] = '1';
		cr_expect(!strcmp(a.out, b.out), "memo %s (%s): with the cache:\n%s--- without (mapped 0 read as 1):\n%s",
			  c, lt_way_name(w), a.out, b.out);
		run_result_free(&a);
		run_result_free(&b);
	}
}

Test(reopen, replaced_files_as_without_the_cache) { same_as_without("replace"); }
Test(reopen, global_in_between_as_without_the_cache) { same_as_without("global"); }
Test(reopen, more_libraries_than_kept_as_without_the_cache) { same_as_without("many"); }
