/* The musl image (scripts/image/, tests/image.mk): real programs and
 * libraries built from Debian's sources, quickbind installed as the
 * image's loader. Run chrooted through a user namespace
 * (scripts/image/chroot.sh, so any user the kernel gives one), compared
 * with the same image under musl's loader, before and after linkopt
 * --root, and after a library of the optimized image is replaced; and
 * built by an ordinary user, who can make no device node. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fixture.h"
#include "lib/run.h"
#include "lib/shell.h"
#include "lib/stats.h"

#define CHROOT IMG_SCRIPTS "/chroot.sh"
/* With MUSL=VERSION the fixtures' userland is that musl's (tests/image.mk);
 * an image built here must be too, or quickbind is refused over it. */
#ifdef IMG_CC
#define BUILD_ENV "IMAGE_CC='" IMG_CC "' IMAGE_MUSL_LDSO='" IMG_MUSL_LDSO "' "
#else
#define BUILD_ENV ""
#endif

static void need_userns(void)
{
	if (shell_status("unshare --user --map-root-user --mount true >/dev/null 2>&1"))
		cr_skip_test("the image is entered through a user and mount namespace, which the kernel "
			     "refuses this user (unshare -rm)");
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
	/* without tmp/'s contents: another test's script may be writing there */
	char *cp[] = {IMG_SCRIPTS "/copy.sh", (char *)img(src), (char *)img(dst), "--exclude=./tmp/*", NULL};
	struct run_result r;
	run_in(&r, cp, NULL);
	cr_assert(r.exited && r.exit_code == 0, "copy.sh %s %s: %s", src, dst, r.err);
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
	need_userns();
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
	need_userns();
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
	need_userns();
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

/* An ordinary user to build an image as: how to run a command as that
 * user, and the owner its files have as this process sees them. */
struct builder {
	const char *as;  /* a command prefix, "" when this process is one */
	uid_t owner;
	int chown_dir;   /* the directory it builds in must be given to it */
};

/* Is uid one of the uids of this process's user namespace? */
static int uid_mapped(unsigned long uid)
{
	FILE *f = fopen("/proc/self/uid_map", "r");
	unsigned long in, out, n;
	int found = 0;

	cr_assert_not_null(f, "/proc/self/uid_map");
	while (fscanf(f, "%lu %lu %lu", &in, &out, &n) == 3)
		if (uid >= in && uid - in < n)
			found = 1;
	fclose(f);
	return found;
}

static struct builder ordinary_user(void)
{
	if (geteuid() != 0)
		return (struct builder){"", geteuid(), 0};
	if (uid_mapped(65534) &&
	    !shell_status("setpriv --reuid=65534 --regid=65534 --clear-groups true >/dev/null 2>&1"))
		return (struct builder){"setpriv --reuid=65534 --regid=65534 --clear-groups --", 65534, 1};
	/* Root of a user namespace that maps root alone (scripts/i386-qemu.sh):
	 * a process of another uid, in a namespace of its own, has no
	 * capability left, and owns what this one owns. */
	if (!shell_status("unshare --user --map-user=65534 --map-group=65534 true >/dev/null 2>&1"))
		return (struct builder){"unshare --user --map-user=65534 --map-group=65534 --", geteuid(), 0};
	cr_skip_test("no way to run a command as an ordinary user here (setpriv, unshare --map-user)");
	return (struct builder){0};
}

/* A new directory in IMG_DIR (named after what, its own for each run:
 * one an earlier run gave another user may be beyond this run's reach)
 * and in it, built by b: rootfs (assemble.sh with quickbind) and
 * image.tar (tar.sh, as make image writes it). *err: what the build
 * printed on stderr. Returns the directory. */
static char *build_as(const struct builder *b, const char *what, char **err)
{
	char dir[4096], root[4200];

	snprintf(dir, sizeof dir, "%s/%s.XXXXXX", IMG_DIR, what);
	cr_assert_not_null(mkdtemp(dir), "mkdtemp %s", dir);
	cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
	if (b->chown_dir)
		cr_assert_eq(chown(dir, b->owner, b->owner), 0, "chown %s", dir);
	snprintf(root, sizeof root, "%s/rootfs", dir);
	struct shell_result r = shell("%s%s sh -c '%s/assemble.sh %s %s && %s/tar.sh %s %s/image.tar'",
				      BUILD_ENV, b->as, IMG_SCRIPTS, IMG_LOADER, root, IMG_SCRIPTS, root, dir);
	cr_assert_eq(r.status, 0, "make image's steps as uid %d: exit %d\n%s%s", (int)b->owner, r.status, r.out, r.err);
	*err = strdup(r.err);
	shell_result_free(&r);
	return strdup(dir);
}

/* Removes what build_as made: its contents as the user who made them. */
static void remove_as(const struct builder *b, char *dir)
{
	shell_ok("removing the ordinary user's image", "%s rm -rf '%s/rootfs' '%s/image.tar' && rmdir '%s'",
		 b->as, dir, dir, dir);
	free(dir);
}

Test(image, built_by_an_ordinary_user, .timeout = 300)
{
	struct builder b = ordinary_user();
	char *err, *dir = build_as(&b, "user", &err), root[4200], tarball[4200];

	snprintf(root, sizeof root, "%s/rootfs", dir);
	snprintf(tarball, sizeof tarball, "%s/image.tar", dir);

	cr_expect(strstr(err, "/dev/null (device nodes cannot be made here)"),
		  "assemble.sh did not say it left /dev/null out:\n%s", err);
	free(err);
	shell_ok("no device node in the image", "test -z \"$(find '%s' -type b -o -type c)\"", root);
	shell_ok("every file is the builder's", "test -z \"$(find '%s' ! -user %d)\" || "
		 "{ find '%s' ! -user %d | head; false; }", root, (int)b.owner, root, (int)b.owner);
	shell_ok("the image's files", "cd '%s' && test -f bin/busybox && test -f usr/bin/lua && "
		 "test -f usr/lib/libz.so.1 && test -f usr/lib/lua/5.4/qbmod.so && test -f etc/ld-musl-x86_64.path && "
		 "test -L lib/libc.musl-x86_64.so.1 && test -L usr/bin/ldd && test -L bin/sh && test -d dev", root);
	shell_ok("quickbind is the image's loader",
		 "tr '\\0' '\\n' < '%s/lib/ld-musl-x86_64.so.1' | grep -q '^quickbind-musl-base='", root);

	struct shell_result t = shell("tar --numeric-owner -tvf '%s'", tarball);
	cr_assert_eq(t.status, 0, "tar -t: %s", t.err);
	cr_expect(strstr(t.out, " ./lib/ld-musl-x86_64.so.1\n") && strstr(t.out, " ./bin/busybox\n") &&
			  strstr(t.out, " ./usr/lib/libz.so.1\n"),
		  "the tarball lacks the image's files:\n%s", t.out);
	cr_expect(strstr(t.out, "drwxrwxrwt 0/0 ") && strstr(t.out, " ./tmp/\n"), "the tarball's /tmp is not 1777:\n%s", t.out);
	int lines = 0, not_root = 0, devices = 0;
	char first_not_root[512] = "", first_device[512] = "";
	for (char *l = t.out, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		cr_assert_not_null(nl);
		*nl = 0;
		char mode[16], owner[64];
		cr_assert_eq(sscanf(l, "%15s %63s", mode, owner), 2, "tar -t line: %s", l);
		if (strcmp(owner, "0/0") && !not_root++)
			snprintf(first_not_root, sizeof first_not_root, "%s", l);
		if ((mode[0] == 'c' || mode[0] == 'b') && !devices++)
			snprintf(first_device, sizeof first_device, "%s", l);
		lines++;
	}
	cr_expect_gt(lines, 100, "the tarball lists %d entries", lines);
	cr_expect_eq(not_root, 0, "%d of %d entries not owned by 0/0 in the tarball, first: %s", not_root, lines,
		     first_not_root);
	cr_expect_eq(devices, 0, "%d device nodes in the tarball, first: %s", devices, first_device);
	shell_result_free(&t);
	remove_as(&b, dir);
}

Test(image, ordinary_users_image_runs_as_under_musl, .timeout = 300)
{
	struct builder b = ordinary_user();
	if (shell_status("%s unshare --user --map-root-user --mount true >/dev/null 2>&1", b.as))
		cr_skip_test("the image is entered through a user and mount namespace, which the kernel "
			     "refuses an ordinary user here");
	char *ref = musl_output(), *err, *dir = build_as(&b, "userrun", &err), root[4200];

	free(err);
	snprintf(root, sizeof root, "%s/rootfs", dir);
	shell_ok("the image script", "%s cp '%s' '%s/script.sh'", b.as, img("qb/script.sh"), root);

	struct shell_result r = shell("env -i PATH=/bin:/sbin:/usr/bin:/usr/sbin LC_ALL=C HOME=/root "
				      "%s %s '%s' /bin/sh /script.sh", b.as, CHROOT, root);
	cr_assert_eq(r.status, 0, "script in the image an ordinary user built: exit %d\n%s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "== done"), "script stopped early:\n%s", r.out);
	cr_expect_str_eq(r.out, ref, "the image an ordinary user built printed otherwise than the musl image");
	shell_result_free(&r);
	shell_ok("nothing written into the image's /dev", "test -z \"$(ls -A '%s/dev')\"", root);
	remove_as(&b, dir);
	free(ref);
}
