/* Secure mode: a set-uid-root copy of a program, run by an unprivileged
 * user, ignores LD_LIBRARY_PATH, LD_PRELOAD and LD_DEBUG (and writes no
 * LD_DEBUG_OUTPUT) and refuses $ORIGIN relative to a relative path; the
 * same program without the set-uid bit, same user, same environment,
 * obeys them all (the control). Needs root to make the set-uid copy. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/check.h"

static char dir[64];

static void copy(const char *from_rel, const char *to_rel, mode_t mode)
{
	char to[256];
	snprintf(to, sizeof to, "%s/%s", dir, to_rel);
	int in = open(qb_fixture_path(from_rel), O_RDONLY);
	cr_assert(in >= 0, "fixture %s missing", from_rel);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert(out >= 0, "cannot create %s", to);
	char buf[65536];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		cr_assert(write(out, buf, n) == n);
	close(in);
	close(out);
	cr_assert(chown(to, 0, 0) == 0 && chmod(to, mode) == 0, "cannot set mode of %s", to);
}

static void sub(const char *rel, mode_t mode)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	cr_assert(mkdir(p, mode) == 0 && chmod(p, mode) == 0, "mkdir %s", p);
}

static void setup(void)
{
	if (geteuid() != 0)
		return;
	strcpy(dir, "/tmp/qbr-secure-XXXXXX");
	cr_assert(mkdtemp(dir));
	cr_assert(chmod(dir, 0755) == 0);
	sub("evil", 0755);
	sub("sub", 0755);
	sub("sub/dep", 0755);
	sub("dbg", 01777);
	copy("sec/secprog.qb", "secprog-qb-setuid", 04755);
	copy("sec/secprog.qb", "secprog-qb-plain", 0755);
	copy("sec/secprog.musl", "secprog-musl-setuid", 04755);
	copy("sec/evil/libqrsec.so", "evil/libqrsec.so", 0644);
	copy("sec/sub/libqrorig.so", "sub/libqrorig.so", 0644);
	copy("sec/sub/dep/libqrodep.so", "sub/dep/libqrodep.so", 0644);
}

static void teardown(void)
{
	if (!dir[0])
		return;
	const char *argv[] = {"/bin/rm", "-rf", dir, NULL};
	struct run_result r;
	run_program(&r, (char *const *)argv, NULL);
	run_result_free(&r);
}

static int dbg_files(void)
{
	char p[256];
	snprintf(p, sizeof p, "%s/dbg", dir);
	DIR *d = opendir(p);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* prog in dir, as uid/gid 65534, with every LD_ variable pointing at
 * evil/ and dbg/. */
static void run_as_nobody(struct run_result *r, const char *prog, const char *debug)
{
	char exe[256], lp[256], pre[256], dbgout[256], dbg[64];
	snprintf(exe, sizeof exe, "%s/%s", dir, prog);
	snprintf(lp, sizeof lp, "LD_LIBRARY_PATH=%s/evil", dir);
	snprintf(pre, sizeof pre, "LD_PRELOAD=%s/evil/libqrsec.so", dir);
	snprintf(dbgout, sizeof dbgout, "LD_DEBUG_OUTPUT=%s/dbg/out", dir);
	snprintf(dbg, sizeof dbg, "LD_DEBUG=%s", debug);
	/* setpriv and env are glibc programs: the variables reach only the
	 * program env starts. */
	char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	const char *argv[] = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
			      "/usr/bin/env", lp, pre, dbg, dbgout, "LD_BIND_NOW=1", exe, dir, NULL};
	struct run_opts o = {.cwd = "/", .envp = env, .timeout_s = 30};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0);
}

Test(secure, setuid_program_ignores_ld_variables, .init = setup, .fini = teardown)
{
	if (geteuid() != 0)
		cr_skip_test("not root: cannot make a set-uid-root copy to run as another user");

	struct run_result r;
	/* control: no set-uid bit, every variable obeyed */
	run_as_nobody(&r, "secprog-qb-plain", "libs");
	cr_expect(r.exited && r.exit_code == 0 &&
		  !strcmp(r.out, "secure 0\npreloaded marker found\nlibqrsec.so evil\nrelative $ORIGIN followed\n"),
		  "control run: %s\n%s--- stderr:\n%s", run_describe(&r), r.out, r.err);
	cr_expect(dbg_files() == 1, "control run: LD_DEBUG_OUTPUT wrote %d files", dbg_files());
	run_result_free(&r);

	/* musl's loader, set-uid: the reference for what it shares */
	run_as_nobody(&r, "secprog-musl-setuid", "libs");
	cr_expect(r.exited && r.exit_code == 0 &&
		  !strncmp(r.out, "secure 1\npreloaded marker absent\nlibqrsec.so not found\n", 55),
		  "musl set-uid run: %s\n%s--- stderr:\n%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);

	int before = dbg_files();
	static const char *const debugs[] = {"libs", "all", "help", NULL};
	for (const char *const *d = debugs; *d; d++) {
		run_as_nobody(&r, "secprog-qb-setuid", *d);
		cr_expect(r.exited && r.exit_code == 0 &&
			  !strcmp(r.out, "secure 1\npreloaded marker absent\nlibqrsec.so not found\n"
					 "relative $ORIGIN refused\n"),
			  "set-uid run (LD_DEBUG=%s): %s\n%s--- stderr:\n%s", *d, run_describe(&r),
			  r.out, r.err);
		cr_expect(r.err_len == 0, "set-uid run (LD_DEBUG=%s) wrote to stderr:\n%s", *d, r.err);
		run_result_free(&r);
	}
	cr_expect(dbg_files() == before, "set-uid runs wrote LD_DEBUG_OUTPUT files");
}
