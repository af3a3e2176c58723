/* Malformed libraries, many of them: a real library with random bytes
 * changed in its headers and dynamic tables. Whatever the damage, the
 * loader either loads it or refuses it with exit status 127 and one line;
 * it never dies of a signal. Run in --list mode, which loads and relocates
 * everything but runs no code of the program. Compiled once per
 * architecture (see loader/arch.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "arch.h"
#include "lib/run.h"
#include "lib/compare.h"

/* where the build put the host tools (one build for both ELF classes) */
#ifndef LT_TOOLS
#error "LT_TOOLS must be defined by the build"
#endif

#define MUTANTS 400

static void mutate(const char *lib, unsigned seed, const char *out)
{
	char s[16], tool[4096];
	snprintf(s, sizeof s, "%u", seed);
	snprintf(tool, sizeof tool, "%s/fuzz/elfmutate", LT_TOOLS);
	char *argv[] = { tool, s, (char *)lib, (char *)out, NULL };
	struct run_result r;
	cr_assert_eq(run_program(&r, argv, NULL), 0);
	cr_assert(r.exited && r.exit_code == 0, "elfmutate %u: %s %s", seed, run_describe(&r), r.err);
	run_result_free(&r);
}

/* variant: "" for the plain library, "opt/" for the one linkopt optimized
 * (its syminfo and quickbind tables are then mutated too) */
static void fuzz(const char *variant)
{
	char dir[2048], lib[2048], out[4096], prog[2048], env[4200];
	snprintf(dir, sizeof dir, "%s/fuzz/mutants%s", lt_fixtures(), *variant ? "-opt" : "");
	snprintf(lib, sizeof lib, "%s/fuzz/%slibfz.so", lt_fixtures(), variant);
	snprintf(prog, sizeof prog, "%s/fuzz/prog.musl", lt_fixtures());
	snprintf(out, sizeof out, "%s/libfz.so", dir);
	snprintf(env, sizeof env, "LD_LIBRARY_PATH=%s", dir);
	mkdir(dir, 0755);

	/* the unmutated library loads */
	char *ok_env[] = { env, NULL };
	char *argv[] = { (char *)lt_loader(), "--list", prog, NULL };
	struct run_result r;
	char okenv[4200];
	snprintf(okenv, sizeof okenv, "LD_LIBRARY_PATH=%s/fuzz/%s", lt_fixtures(), variant);
	char *good_env[] = { okenv, NULL };
	struct run_opts go = { .envp = good_env };
	cr_assert_eq(run_program(&r, argv, &go), 0);
	cr_assert(r.exited && r.exit_code == 0 && strstr(r.out, "libfz.so"),
		  "the intact library: %s\n%s%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);

	unsigned loaded = 0, refused = 0;
	struct run_opts o = { .envp = ok_env, .timeout_s = 20 };
	for (unsigned seed = 1; seed <= MUTANTS; seed++) {
		mutate(lib, seed, out);
		cr_assert_eq(run_program(&r, argv, &o), 0);
		cr_assert(!r.signaled && !r.timed_out,
			  "mutant %u (elfmutate %u %s OUT) killed the loader: %s\nstderr:\n%s",
			  seed, seed, lib, run_describe(&r), r.err);
		cr_assert(r.exited && (r.exit_code == 0 || r.exit_code == 127),
			  "mutant %u: %s\n%s", seed, run_describe(&r), r.err);
		if (r.exit_code == 0) {
			loaded++;
		} else {
			refused++;
			cr_assert(strstr(r.err, "libfz.so") || strstr(r.err, "Error"),
				  "mutant %u: refused without naming the object:\n%s", seed, r.err);
		}
		run_result_free(&r);
	}
	cr_log_info("%u mutants: %u loaded, %u refused", MUTANTS, loaded, refused);
	/* both outcomes must occur, or the mutations are not reaching the loader */
	cr_assert_gt(refused, 0);
	cr_assert_gt(loaded, 0);
}

Test(LT_SUITE(loader_fuzz), mutated_library_never_crashes_the_loader, .timeout = 600)
{
	fuzz("");
}

Test(LT_SUITE(loader_fuzz), mutated_optimized_library_never_crashes_the_loader, .timeout = 600)
{
	fuzz("opt/");
}
