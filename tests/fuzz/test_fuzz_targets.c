/* The fuzz targets themselves, and what each fuzz find was fixed to do.
 *
 * targets: every file of the regression corpus and every seed goes once
 * through each libFuzzer target (libFuzzer's run-these-inputs mode). A
 * target stops with an error on a crash, a sanitizer report or one of its
 * own checks; the x86_64 loader target also looks for leaks there (an
 * object the loader refuses must leave nothing allocated). This keeps the
 * targets building from the current sources and every old find fixed
 * inside them, not only through the installed programs.
 *
 * findings: the refusal each fix promises, one line naming the object and
 * the reason, on each class concerned. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/run.h"
#include "lib/shell.h"

#ifndef FZT_BIN
#error "FZT_BIN, FZT_CORPUS, FZT_SEEDS, FZT_LINKOPT and the loaders come from tests/fuzz.mk"
#endif

#define MAXARGS 1024

/* argv for target: the target, its options, then every regular file of
 * the given directories (one level: corpus/fuzz, corpus/repro, ...). */
static int add_dir(char **v, int n, const char *dir)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "cannot read %s", dir);
	struct dirent *e;
	while ((e = readdir(d)) && n < MAXARGS - 1) {
		if (e->d_name[0] == '.' || strstr(e->d_name, "README"))
			continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			n = add_dir(v, n, p);
			continue;
		}
		v[n++] = strdup(p);
	}
	closedir(d);
	return n;
}

static void run_target(const char *name, const char *seeds, const char *asan_options)
{
	char bin[4096], *v[MAXARGS];
	snprintf(bin, sizeof bin, "%s/fuzz-%s", FZT_BIN, name);
	cr_assert_eq(access(bin, X_OK), 0, "%s is missing", bin);
	int n = 0;
	v[n++] = bin;
	v[n++] = "-timeout=60";
	n = add_dir(v, n, FZT_CORPUS);
	int first = n;
	n = add_dir(v, n, seeds);
	cr_assert_gt(n, first, "no seeds in %s", seeds);
	v[n] = NULL;
	char *env[] = { (char *)asan_options, "PATH=/usr/bin:/bin", NULL };
	struct run_result r;
	cr_assert_eq(run_program(&r, v, &(struct run_opts){ .envp = env, .timeout_s = 500 }), 0);
	cr_expect(r.exited && r.exit_code == 0, "fuzz-%s on the corpus and seeds: %s\n%s", name,
		  run_describe(&r), r.err);
	cr_log_info("fuzz-%s: %d inputs", name, n - 2);
	run_result_free(&r);
}

Test(fuzz_targets, linkopt, .timeout = 600)
{
	run_target("linkopt", FZT_SEEDS "/x86_64", "ASAN_OPTIONS=detect_leaks=0");
	run_target("linkopt", FZT_SEEDS "/i386", "ASAN_OPTIONS=detect_leaks=0");
}

Test(fuzz_targets, loader_x86_64, .timeout = 600)
{
	run_target("loader-x86_64", FZT_SEEDS "/x86_64", "ASAN_OPTIONS=detect_leaks=1");
}

Test(fuzz_targets, loader_i386, .timeout = 600)
{
	run_target("loader-i386", FZT_SEEDS "/i386", "UBSAN_OPTIONS=halt_on_error=1");
}

/* the real loaders and the main program: --list and PT_INTERP */
Test(fuzz_targets, main, .timeout = 600)
{
	run_target("main", FZT_SEEDS "/x86_64", "ASAN_OPTIONS=detect_leaks=0");
	run_target("main", FZT_SEEDS "/i386", "ASAN_OPTIONS=detect_leaks=0");
}

/* ----------------------------------------------------------- findings --- */

/* cmd FILE (a copy of the corpus file) must exit with code, saying why in
 * one line that names the file; the file stays as it was. */
static void expect_refusal(const char *tool, const char *opt, const char *file, int code, const char *why)
{
	if (!*tool)
		cr_skip_test("this architecture is not configured");
	char src[4096], in[128], out[128];
	snprintf(src, sizeof src, "%s/%s", FZT_CORPUS, file);
	char *tmp = make_tmpdir("/tmp/qbfztXXXXXX");
	snprintf(in, sizeof in, "%s/in", tmp);
	snprintf(out, sizeof out, "%s/out", tmp);
	cr_assert_eq(shell_status("cp '%s' '%s' && chmod 755 '%s'", src, in, in), 0);
	char *v[] = { (char *)tool, (char *)opt, opt[1] == 'o' ? out : in, in, NULL };
	if (opt[1] != 'o')
		v[3] = NULL;
	struct run_result r;
	cr_assert_eq(run_program(&r, v, &(struct run_opts){ .timeout_s = 60 }), 0);
	cr_expect(r.exited && r.exit_code == code, "%s %s %s: %s, expected exit %d\n%s", tool, opt, file,
		  run_describe(&r), code, r.err);
	cr_expect(count_lines(r.err) == 1 && strstr(r.err, in) && strstr(r.err, why),
		  "%s %s %s: expected one line naming %s and saying \"%s\", got:\n%s", tool, opt, file,
		  in, why, r.err);
	run_result_free(&r);
	cr_expect(same_file(src, in), "%s %s changed %s", tool, opt, file);
	cr_assert_eq(shell_status("rm -rf '%s'", tmp), 0);
	free(tmp);
}

/* DT_VERSYM lying over the relocations: linkopt's symbol reordering used
 * to rewrite their symbol indices through it and index past its table. */
Test(fuzz_findings, linkopt_versym_over_relocs_x86_64)
{
	expect_refusal(FZT_LINKOPT, "-o", "fuzz/x86_64-versym-over-relocs.elf", 2, "DT_VERSYM overlaps DT_RELA");
	expect_refusal(FZT_LINKOPT_ASAN, "-o", "fuzz/x86_64-versym-over-relocs.elf", 2, "DT_VERSYM overlaps DT_RELA");
}

Test(fuzz_findings, linkopt_versym_over_relocs_i386)
{
	expect_refusal(FZT_LINKOPT, "-o", "fuzz/i386-versym-over-relocs.elf", 2, "DT_VERSYM overlaps DT_REL");
	expect_refusal(FZT_LINKOPT_ASAN, "-o", "fuzz/i386-versym-over-relocs.elf", 2, "DT_VERSYM overlaps DT_REL");
}

/* A PT_PHDR the loader would read its program headers through at an
 * address not aligned for them. */
Test(fuzz_findings, loader_phdr_misaligned_x86_64)
{
	expect_refusal(FZT_LOADER_x86_64, "--list", "fuzz/x86_64-phdr-misaligned", 127, "misaligned PT_PHDR");
}

Test(fuzz_findings, loader_phdr_misaligned_i386)
{
	expect_refusal(FZT_LOADER_i386, "--list", "fuzz/i386-phdr-misaligned", 127, "misaligned PT_PHDR");
}

/* A PIE turned ET_EXEC (issue 25's fuzz-list, ../shared/repro/fuzz-list/et_exec64
 * and ../shared/repro/fuzz-list/et_exec32): its segments at their link
 * addresses, from 0, over whatever the process had there. */
Test(fuzz_findings, loader_et_exec_at_page_zero_x86_64)
{
	expect_refusal(FZT_LOADER_x86_64, "--list", "fuzz/x86_64-et-exec-at-page-zero.elf", 127,
		       "segments at address 0");
}

Test(fuzz_findings, loader_et_exec_at_page_zero_i386)
{
	expect_refusal(FZT_LOADER_i386, "--list", "fuzz/i386-et-exec-at-page-zero.elf", 127,
		       "segments at address 0");
}

/* A GNU hash table whose last chain has no end bit and runs on through a
 * large bss of zeros: walked to the image's end, one page-table check a
 * step, it held the i386 target for over 20 seconds an input. The chain
 * is now bounded by more symbols than any object has. */
Test(fuzz_findings, loader_gnu_chain_through_bss_i386)
{
	expect_refusal(FZT_LOADER_i386, "--list", "fuzz/i386-gnu-chain-through-bss.elf", 127,
		       "corrupt DT_GNU_HASH chain");
}

/* The main target's finds. A DT_NEEDED name holding a newline split the
 * refusal over two lines: the loader now prints control characters of a
 * message as '?' (run directly: the list mode reports every library it
 * cannot load, one line each). */
Test(fuzz_findings, loader_needed_name_with_newline_i386)
{
	expect_refusal(FZT_LOADER_i386, "--", "fuzz/i386-needed-name-with-newline.elf", 127,
		       "Error loading shared library ?_init");
}
