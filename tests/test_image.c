/* The musl image (scripts/image/, tests/image.mk): real programs and
 * libraries built from Debian's sources, quickbind installed as the
 * image's loader. Run with chroot (root only), compared with the same
 * image under musl's loader, before and after linkopt --root, and after a
 * library of the optimized image is replaced. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fixture.h"
#include "lib/run.h"
#include "lib/stats.h"

#define CHROOT "/usr/sbin/chroot"

static void need_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("chroot into the image needs root (CI runs as root)");
}

static const char *img(const char *rel)
{
	return fixture_path(IMG_DIR, rel);
}

static void run_in(struct run_result *r, char *const argv[], const char *extra_env)
{
	char *env[] = {"PATH=/bin:/sbin:/usr/bin:/usr/sbin", "LC_ALL=C", "HOME=/root", (char *)extra_env, NULL};
	struct run_opts o = {.envp = env, .timeout_s = 120};
	cr_assert(run_program(r, argv, &o) == 0, "cannot run %s", argv[0]);
}

/* The image script in root: must end with exit 0 and "== done". */
static void run_script(struct run_result *r, const char *root)
{
	char *argv[] = {CHROOT, (char *)img(root), "/bin/sh", "/script.sh", NULL};
	run_in(r, argv, NULL);
	cr_assert(r->exited && r->exit_code == 0, "script in %s: %s\n%s%s", root, run_describe(r), r->out, r->err);
	cr_assert(strstr(r->out, "== done"), "script in %s stopped early:\n%s", root, r->out);
}

/* Copies src to dst (fresh) inside IMG_DIR. */
static void copy_root(const char *src, const char *dst)
{
	char *rm[] = {"/bin/rm", "-rf", (char *)img(dst), NULL};
	/* without tmp/'s contents: another test's script may be writing there */
	char line[9000];
	snprintf(line, sizeof line, "mkdir '%s' && tar -C '%s' --exclude='./tmp/*' -cf - . | tar -C '%s' -xf -",
		 img(dst), img(src), img(dst));
	char *cp[] = {"/bin/sh", "-c", line, NULL};
	struct run_result r;
	run_in(&r, rm, NULL);
	run_result_free(&r);
	run_in(&r, cp, NULL);
	cr_assert(r.exited && r.exit_code == 0, "cp %s %s: %s", src, dst, r.err);
	run_result_free(&r);
}

static char *musl_output(void)
{
	struct run_result m;
	run_script(&m, "musl");
	char *out = strdup(m.out);
	run_result_free(&m);
	return out;
}

static void linkopt(struct run_result *r, const char *mode, const char *root)
{
	char *argv[] = {IMG_LINKOPT, "--root", (char *)img(root), NULL, NULL};
	if (mode) {
		argv[1] = (char *)mode;
		argv[2] = "--root";
		argv[3] = (char *)img(root);
	}
	run_in(r, argv, NULL);
}

/* direct_hits of lua in root, from LD_DEBUG=statistics. */
/* Statistics counter key of prog's start-up in root, with the program's
 * launch record or without it (LD_NORECORD=1). */
static long start_stat(const char *root, const char *prog, const char *key, int record)
{
	char *argv[] = {CHROOT, (char *)img(root), (char *)prog, "-e", "print(1)", NULL};
	char *env[] = {"PATH=/bin:/sbin:/usr/bin:/usr/sbin", "LC_ALL=C", "HOME=/root", "LD_DEBUG=statistics",
		       record ? NULL : "LD_NORECORD=1", NULL};
	struct run_opts o = {.envp = env, .timeout_s = 120};
	struct run_result r;
	cr_assert(run_program(&r, argv, &o) == 0, "cannot run %s", argv[0]);
	cr_assert(r.exited && r.exit_code == 0, "%s in %s: %s\n%s", prog, root, run_describe(&r), r.err);
	long n = ld_stat(r.err, "start-up", key);
	cr_assert(n >= 0, "%s in %s: no statistics:\n%s", prog, root, r.err);
	run_result_free(&r);
	return n;
}

/* dst: a fresh copy of the quickbind image, optimized by linkopt --root. */
static void optimized_copy(const char *dst)
{
	copy_root("qb", dst);
	struct run_result r;
	linkopt(&r, NULL, dst);
	cr_assert(r.exited && r.exit_code == 0, "linkopt --root: %s\n%s", run_describe(&r), r.err);
	run_result_free(&r);
}

Test(image, programs_run_as_under_musl, .timeout = 300)
{
	need_root();
	char *ref = musl_output();
	cr_expect(strstr(ref, "a+b+c\t10"), "the Lua module did not load under musl:\n%s", ref);
	cr_expect(strstr(ref, "libc.musl-x86_64.so.1 => /lib/ld-musl-x86_64.so.1"),
		  "ldd in the musl image does not show the libc name programs ask for:\n%s", ref);
	struct run_result q;
	run_script(&q, "qb");
	cr_expect_str_eq(q.out, ref, "the image under quickbind printed otherwise than under musl's loader");
	run_result_free(&q);
	free(ref);
}

Test(image, linkopt_root_optimizes_and_keeps_behaviour, .timeout = 300)
{
	need_root();
	char *ref = musl_output();
	optimized_copy("opt");
	struct run_result r;
	linkopt(&r, "--check", "opt");
	cr_expect(r.exited && r.exit_code == 0, "linkopt --check --root after optimizing: %s\n%s%s",
		  run_describe(&r), r.out, r.err);
	run_result_free(&r);
	run_script(&r, "opt");
	cr_expect_str_eq(r.out, ref, "the optimized image printed otherwise than the image under musl's loader");
	run_result_free(&r);
	cr_expect_gt(start_stat("opt", "/usr/bin/lua", "launch_record", 1), 0,
		     "lua in the optimized image took nothing from its launch record");
	cr_expect_gt(start_stat("opt", "/usr/bin/lua", "direct_hits", 0), 0,
		     "lua in the optimized image took no direct binding without its record");
	free(ref);
}

Test(image, replaced_library_is_detected_and_tables_ignored, .timeout = 300)
{
	need_root();
	char *ref = musl_output();
	optimized_copy("stale");
	struct run_result r;
	char dst[4096];
	snprintf(dst, sizeof dst, "%s/usr/lib/libz.so.1", img("stale"));
	char *cp[] = {"/bin/cp", (char *)img("libz-rebuilt.so.1"), dst, NULL};
	run_in(&r, cp, NULL);
	cr_assert(r.exited && r.exit_code == 0, "cp libz: %s", r.err);
	run_result_free(&r);
	linkopt(&r, "--check", "stale");
	cr_expect(r.exited && r.exit_code == 1, "linkopt --check --root with a replaced libz: %s\n%s%s",
		  run_describe(&r), r.out, r.err);
	cr_expect(strstr(r.out, "minigzip") || strstr(r.err, "minigzip"),
		  "linkopt --check does not name minigzip, whose tables name the old libz:\n%s%s", r.out, r.err);
	run_result_free(&r);
	run_script(&r, "stale");
	cr_expect_str_eq(r.out, ref, "after replacing libz the image printed otherwise than under musl's loader");
	run_result_free(&r);
	free(ref);
}
