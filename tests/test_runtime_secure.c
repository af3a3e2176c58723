/* Secure mode: a set-uid-root copy of a program, run by an unprivileged
 * user, ignores LD_LIBRARY_PATH, LD_PRELOAD and LD_DEBUG (and writes no
 * LD_DEBUG_OUTPUT) and refuses $ORIGIN relative to a relative path; it
 * removes the unsafe variables from the environment, so that a program it
 * runs after setuid(0) does not get them; it follows the program's own
 * $ORIGIN only inside the system library directories. The same program
 * without the set-uid bit, same user, same environment, obeys them all
 * (the control). Needs root to make the set-uid copy. x86_64 only: i386
 * programs run through qemu-user here, whose binfmt entry has no 'C'
 * flag, so the kernel does not honour their set-uid bit. */
#define _GNU_SOURCE
#include <dirent.h>
#include <glob.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/shell.h"
#include "runtime/check.h"

static char dir[64];

static void copy(const char *from_rel, const char *to_rel, mode_t mode)
{
	char to[256];
	snprintf(to, sizeof to, "%s/%s", dir, to_rel);
	int in = open(lt_fixture_path(from_rel), O_RDONLY);
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

/* The set-uid runs are root's copy run as nobody: root of a user
 * namespace that maps root alone (scripts/i386-qemu.sh) has no other
 * user to be. */
static void need_another_user(void)
{
	if (geteuid() != 0)
		cr_skip_test("not root: cannot make a set-uid-root copy to run as another user");
	if (shell_status("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups /bin/true 2>/dev/null"))
		cr_skip_test("cannot run as another user here (a user namespace that maps no other user)");
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
	sub("lib", 0755);
	copy("sec/secexec.qb", "secexec-qb-setuid", 04755);
	copy("sec/secexec.qb", "secexec-qb-plain", 0755);
	copy("sec/envdump.qb", "envdump", 0755);
	copy("sec/evil/libqrevil.so", "evil/libqrevil.so", 0644);
	copy("sec/secorig.qb", "secorig-qb-setuid", 04755);
	copy("sec/secorig.qb", "secorig-qb-plain", 0755);
	copy("sec/evil/libqrsec.so", "lib/libqrsec.so", 0644);
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
	need_another_user();

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

/* The variables a set-id process must not pass on: glibc 2.36's list
 * (unsecvars.h and the malloc tunables' aliases) and every LD_ name the
 * loader's sources mention, so that a new switch is covered too. */
static int unsafe_names(char names[][64], int max)
{
	static const char *const glibc[] = {
		"GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES", "LD_AUDIT", "LD_DEBUG",
		"LD_DEBUG_OUTPUT", "LD_DYNAMIC_WEAK", "LD_HWCAP_MASK", "LD_LIBRARY_PATH", "LD_ORIGIN_PATH",
		"LD_PRELOAD", "LD_PROFILE", "LD_SHOW_AUXV", "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE",
		"NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR", "TZDIR",
		"MALLOC_CHECK_", "MALLOC_ARENA_MAX", "MALLOC_ARENA_TEST", "MALLOC_MMAP_MAX_",
		"MALLOC_MMAP_THRESHOLD_", "MALLOC_PERTURB_", "MALLOC_TOP_PAD_", "MALLOC_TRIM_THRESHOLD_",
		"LD_BIND_NOW",
	};
	int n = 0;
	for (size_t i = 0; i < sizeof glibc / sizeof *glibc; i++)
		snprintf(names[n++], 64, "%s", glibc[i]);
	glob_t g;
	cr_assert(glob(QBR_SRCDIR "/ldso/*.[ch]", 0, NULL, &g) == 0, "no loader sources under %s", QBR_SRCDIR);
	int from_sources = 0;
	for (size_t f = 0; f < g.gl_pathc; f++) {
		FILE *in = fopen(g.gl_pathv[f], "r");
		cr_assert(in);
		char line[1024];
		while (fgets(line, sizeof line, in))
			for (char *q = line; (q = strstr(q, "\"LD_")); q++) {
				size_t len = strspn(q + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
				if (q[1 + len] != '"' || len >= 64)
					continue;
				char name[64];
				snprintf(name, sizeof name, "%.*s", (int)len, q + 1);
				int dup = 0;
				for (int k = 0; k < n; k++)
					dup |= !strcmp(names[k], name);
				if (!dup && n < max) {
					snprintf(names[n++], 64, "%s", name);
					from_sources++;
				}
			}
		fclose(in);
	}
	globfree(&g);
	/* LD_NODIRECT, LD_NOHASHVALS, LD_NOSYMCACHE, LD_NOHINTS, LD_DIRECT_VERIFY at least */
	cr_assert(from_sources >= 5, "only %d quickbind LD_ switches found in the sources", from_sources);
	return n;
}

/* secexec-PROG (as nobody) runs envdump with every unsafe variable set. */
static void run_secexec(struct run_result *r, const char *prog, char names[][64], int n)
{
	static char vars[80][400];
	const char *argv[100];
	int a = 0, v = 0;
	argv[a++] = "/usr/bin/setpriv";
	argv[a++] = "--reuid=65534";
	argv[a++] = "--regid=65534";
	argv[a++] = "--clear-groups";
	argv[a++] = "/usr/bin/env";
	for (int i = 0; i < n && v < 78; i++, v++) {
		const char *val = "1";
		char buf[256];
		if (!strcmp(names[i], "LD_PRELOAD"))
			snprintf(buf, sizeof buf, "%s/evil/libqrevil.so", dir), val = buf;
		else if (!strcmp(names[i], "LD_LIBRARY_PATH"))
			snprintf(buf, sizeof buf, "%s/evil", dir), val = buf;
		else if (!strcmp(names[i], "LD_DEBUG"))
			val = "libs";
		else if (!strcmp(names[i], "LD_DEBUG_OUTPUT"))
			snprintf(buf, sizeof buf, "%s/dbg/out", dir), val = buf;
		snprintf(vars[v], sizeof vars[v], "%s=%s", names[i], val);
		argv[a++] = vars[v];
	}
	argv[a++] = "QB_KEEP_ME=1";
	char exe[256], dump[256];
	snprintf(exe, sizeof exe, "%s/%s", dir, prog);
	snprintf(dump, sizeof dump, "%s/envdump", dir);
	argv[a++] = exe;
	argv[a++] = dump;
	argv[a] = NULL;
	char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	struct run_opts o = {.cwd = "/", .envp = env, .timeout_s = 30};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0);
}

static int has_line(const char *out, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = out; (p = strstr(p, line)); p++)
		if ((p == out || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

Test(secure, setuid_program_removes_unsafe_variables_from_the_environment, .init = setup, .fini = teardown)
{
	need_another_user();
	char names[80][64];
	int n = unsafe_names(names, 80);
	struct run_result r;

	/* control: no set-uid bit; the child sees every variable and runs
	 * the preloaded library */
	run_secexec(&r, "secexec-qb-plain", names, n);
	cr_assert(r.exited && r.exit_code == 0, "control run: %s\n%s--- stderr:\n%s", run_describe(&r), r.out, r.err);
	cr_expect(strstr(r.out, "EVIL euid 65534\n") != NULL, "control run: the preload did not run:\n%s", r.out);
	for (int i = 0; i < n; i++) {
		char l[128];
		snprintf(l, sizeof l, "env %.63s", names[i]);
		cr_expect(has_line(r.out, l), "control run: %s did not reach the child:\n%s", names[i], r.out);
	}
	run_result_free(&r);

	/* set-uid root: the child, root and no longer secure, must see none
	 * of them, and run nothing of the caller's */
	run_secexec(&r, "secexec-qb-setuid", names, n);
	cr_assert(r.exited && r.exit_code == 0, "set-uid run: %s\n%s--- stderr:\n%s", run_describe(&r), r.out, r.err);
	cr_expect(!strstr(r.out, "EVIL"), "set-uid run: the caller's LD_PRELOAD ran:\n%s", r.out);
	cr_expect(has_line(r.out, "euid 0"), "set-uid run: the child is not root:\n%s", r.out);
	cr_expect(has_line(r.out, "env QB_KEEP_ME") && has_line(r.out, "env PATH"),
		  "set-uid run: harmless variables were lost:\n%s", r.out);
	for (int i = 0; i < n; i++) {
		char l[128];
		snprintf(l, sizeof l, "env %.63s", names[i]);
		cr_expect(!has_line(r.out, l), "set-uid run: %s left in the environment", names[i]);
	}
	cr_expect(r.err_len == 0, "set-uid run wrote to stderr:\n%s", r.err);
	run_result_free(&r);
}

/* PROG in DIR, as nobody, no LD_ variables. */
static void run_plain(struct run_result *r, const char *d, const char *prog)
{
	char exe[256];
	snprintf(exe, sizeof exe, "%s/%s", d, prog);
	char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	const char *argv[] = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, NULL};
	struct run_opts o = {.cwd = "/", .envp = env, .timeout_s = 30};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0);
}

Test(secure, setuid_program_origin_only_in_system_directories, .init = setup, .fini = teardown)
{
	need_another_user();
	struct run_result r;
	/* control: $ORIGIN/lib is followed */
	run_plain(&r, dir, "secorig-qb-plain");
	cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, "libqrsec.so evil\n"),
		  "control run: %s\n%s--- stderr:\n%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);
	/* set-uid in a directory anyone could link it into: $ORIGIN/lib is
	 * skipped, the next RUNPATH element serves */
	run_plain(&r, dir, "secorig-qb-setuid");
	cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, "libqrsec.so good\n"),
		  "set-uid run: %s\n%s--- stderr:\n%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);

	/* set-uid under /usr/lib: its $ORIGIN is trusted */
	char sys[64] = "/usr/lib/qbr-secure-XXXXXX";
	cr_assert(mkdtemp(sys), "cannot create a directory under /usr/lib");
	char from[300], to[300], lib[300];
	snprintf(lib, sizeof lib, "%s/lib", sys);
	cr_assert(chmod(sys, 0755) == 0 && mkdir(lib, 0755) == 0 && chmod(lib, 0755) == 0);
	snprintf(from, sizeof from, "%s/secorig-qb-setuid", dir);
	snprintf(to, sizeof to, "%s/secorig", sys);
	const char *cp1[] = {"/bin/cp", "-p", from, to, NULL};
	snprintf(from + 200, 100, "%s/lib/libqrsec.so", dir);
	const char *cp2[] = {"/bin/cp", "-p", from + 200, lib, NULL};
	struct run_result c;
	run_program(&c, (char *const *)cp1, NULL);
	int ok = c.exited && c.exit_code == 0;
	run_result_free(&c);
	run_program(&c, (char *const *)cp2, NULL);
	ok = ok && c.exited && c.exit_code == 0;
	run_result_free(&c);
	struct stat st;
	ok = ok && stat(to, &st) == 0 && (st.st_mode & S_ISUID) && st.st_uid == 0;
	if (ok)
		run_plain(&r, sys, "secorig");
	const char *rm[] = {"/bin/rm", "-rf", sys, NULL};
	run_program(&c, (char *const *)rm, NULL);
	run_result_free(&c);
	cr_assert(ok, "cannot install the set-uid copy under %s", sys);
	cr_expect(r.exited && r.exit_code == 0 && !strcmp(r.out, "libqrsec.so evil\n"),
		  "set-uid run under /usr/lib: %s\n%s--- stderr:\n%s", run_describe(&r), r.out, r.err);
	run_result_free(&r);
}
