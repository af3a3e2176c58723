/* i386 programs under quickbind's i386 loader, compared with musl's i386
 * loader: as PT_INTERP (NAME.qb) and run as a command (loader NAME.musl).
 * Fixtures come from tests/i386.mk. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/run.h"
#include "lib/fixture.h"

enum { REF, QB_INTERP, QB_DIRECT, NRUNS };
static const char *const run_name[NRUNS] = { "musl", "quickbind as PT_INTERP", "quickbind as a command" };

static char *path(const char *rel)
{
	return fixture_path(I3_DIR, rel);
}

static void run_ok(struct run_result *r, char *const argv[], char *const env[])
{
	struct run_opts o = { 0 };
	char **e = env ? env_build(0, env) : 0;
	o.envp = e;
	o.timeout_s = 60;
	cr_assert_eq(run_program(r, argv, &o), 0, "cannot run %s", argv[0]);
	env_free(e);
}

/* Run fixture NAME (.musl with musl's loader, .qb, and .musl through
 * quickbind) with one argument; extra_env adds to the environment. */
static void run3(const char *name, char *const extra_env[], struct run_result r[NRUNS])
{
	char musl[4096], qb[4096];
	snprintf(musl, sizeof musl, "%s.musl", path(name));
	snprintf(qb, sizeof qb, "%s.qb", path(name));
	char *a0[] = { musl, "last", 0 };
	char *a1[] = { qb, "last", 0 };
	char *a2[] = { I3_LOADER, musl, "last", 0 };
	run_ok(&r[REF], a0, extra_env);
	run_ok(&r[QB_INTERP], a1, extra_env);
	run_ok(&r[QB_DIRECT], a2, extra_env);
}

static void free3(struct run_result r[NRUNS])
{
	for (int i = 0; i < NRUNS; i++)
		run_result_free(&r[i]);
}

/* quickbind's runs end exactly like the reference and print the same. */
static void same_as_ref(struct run_result r[NRUNS], int with_stderr)
{
	cr_assert(r[REF].exited, "reference run: %s\n%s", run_describe(&r[REF]), r[REF].err);
	for (int i = QB_INTERP; i < NRUNS; i++) {
		cr_expect(r[i].exited && r[i].exit_code == r[REF].exit_code,
			"%s: %s, reference: %s\nstderr: %s", run_name[i], run_describe(&r[i]),
			run_describe(&r[REF]), r[i].err);
		cr_expect_str_eq(r[i].out, r[REF].out, "%s: stdout differs", run_name[i]);
		if (with_stderr)
			cr_expect_str_eq(r[i].err, r[REF].err, "%s: stderr differs", run_name[i]);
	}
}

/* Programs that succeed under musl's loader. */
static void compare(const char *name, int with_stderr)
{
	struct run_result r[NRUNS];
	run3(name, 0, r);
	cr_expect_eq(r[REF].exit_code, 0, "reference: %s\n%s", run_describe(&r[REF]), r[REF].err);
	same_as_ref(r, with_stderr);
	free3(r);
}

Test(i386, stdio_malloc_exit_status)
{
	struct run_result r[NRUNS];
	run3("stdio", 0, r);
	same_as_ref(r, 1);
	cr_expect_eq(r[REF].exit_code, 7);
	cr_expect(strstr(r[QB_DIRECT].out, "argc=2, last arg=last") != 0, "%s", r[QB_DIRECT].out);
	free3(r);
}

Test(i386, tls_threads_gd_ie_tlsdesc)
{
	struct run_result r[NRUNS];
	run3("tls/prog", 0, r);
	cr_expect_eq(r[REF].exit_code, 0, "reference: %s\n%s", run_describe(&r[REF]), r[REF].err);
	same_as_ref(r, 1);
	cr_expect_eq(count_lines(r[REF].out), 5, "%s", r[REF].out);
	/* Every thread saw its own copies, all access models agreeing. */
	cr_expect(!strstr(r[QB_INTERP].out, "same=0") && !strstr(r[QB_INTERP].out, "same=10"),
		"%s", r[QB_INTERP].out);
	free3(r);
}

Test(i386, copy_relocation)
{
	compare("copyreloc/prog", 1);
}

Test(i386, interposition)
{
	compare("interpose/prog", 1);
}

Test(i386, constructor_destructor_order)
{
	struct run_result r[NRUNS];
	run3("initfini/prog", 0, r);
	same_as_ref(r, 1);
	cr_expect(strstr(r[REF].out, "ctor leaf\nctor mid\nctor top\nctor program\n") != 0, "%s", r[REF].out);
	free3(r);
}

Test(i386, dlsym_time64_redirection)
{
	struct run_result r[NRUNS];
	run3("time64/prog", 0, r);
	same_as_ref(r, 1);
	/* The reference itself must show the redirection at work. */
	cr_expect(strstr(r[REF].out, "sizeof(time_t)=8\nclock_gettime: 1\n") != 0, "%s", r[REF].out);
	cr_expect(strstr(r[REF].out, "call through dlsym: 0, after 2020: 1") != 0, "%s", r[REF].out);
	free3(r);
}

Test(i386, dlopen_dynamic_tls_in_existing_threads)
{
	struct run_result r[NRUNS];
	run3("dlopen/prog", 0, r);
	cr_expect_eq(r[REF].exit_code, 0, "reference: %s\n%s", run_describe(&r[REF]), r[REF].out);
	same_as_ref(r, 1);
	cr_expect(strstr(r[REF].out, "thread 3: libdyngd.so=43,gd-3 libdyndesc.so=43,desc-3\n") != 0,
		"%s", r[REF].out);
	free3(r);
}

/* Fixture NAME under quickbind both ways, against a reference program
 * run directly (for what musl's loader lacks). */
static void compare_with(char *const ref_argv[], const char *name, const char *must_have)
{
	struct run_result g, q[2];
	char qb[4096], musl[4096];
	snprintf(qb, sizeof qb, "%s.qb", path(name));
	snprintf(musl, sizeof musl, "%s.musl", path(name));
	char *a1[] = { qb, 0 };
	char *a2[] = { I3_LOADER, musl, 0 };
	run_ok(&g, ref_argv, 0);
	run_ok(&q[0], a1, 0);
	run_ok(&q[1], a2, 0);
	cr_assert(g.exited && g.exit_code == 0, "reference: %s %s", run_describe(&g), g.err);
	cr_expect(strstr(g.out, must_have) != 0, "%s", g.out);
	for (int i = 0; i < 2; i++) {
		cr_expect(q[i].exited && q[i].exit_code == 0, "%s: %s\n%s", run_name[i + 1],
			run_describe(&q[i]), q[i].err);
		cr_expect_str_eq(q[i].out, g.out, "%s", run_name[i + 1]);
		run_result_free(&q[i]);
	}
	run_result_free(&g);
}

/* musl's loader has no IFUNC: glibc's i386 build of the same sources is
 * the reference. */
Test(i386, ifunc_against_glibc)
{
	char *ref[] = { path("ifunc/glibc/prog"), 0 };
	compare_with(ref, "ifunc/prog", "lib_ifn(5)=15");
}

/* musl 1.2.3's loader has no DT_RELR: the reference is the same program
 * linked without it, under musl's loader. */
Test(i386, relr_against_plain_relocations)
{
	char plain[4096];
	snprintf(plain, sizeof plain, "%s.musl", path("relr/plain/prog"));
	char *ref[] = { plain, 0 };
	compare_with(ref, "relr/prog", "1240 alpha gamma two");
}

Test(i386, needed_library_found)
{
	char lp[4200];
	snprintf(lp, sizeof lp, "LD_LIBRARY_PATH=%s", path("need/link"));
	char *env[] = { lp, 0 };
	struct run_result r[NRUNS];
	run3("need/prog", env, r);
	same_as_ref(r, 1);
	cr_expect_str_eq(r[REF].out, "need_value: 42\n");
	free3(r);
}

/* A library that cannot be used: exit 127 before main, as musl does, with
 * one line naming the library. */
static void load_error(const char *dir)
{
	char lp[4200];
	snprintf(lp, sizeof lp, "LD_LIBRARY_PATH=%s", path(dir));
	char *env[] = { lp, 0 };
	struct run_result r[NRUNS];
	run3("need/prog", env, r);
	cr_expect(r[REF].exited && r[REF].exit_code == 127, "musl: %s", run_describe(&r[REF]));
	for (int i = QB_INTERP; i < NRUNS; i++) {
		cr_expect(r[i].exited && r[i].exit_code == 127, "%s: %s\n%s", run_name[i],
			run_describe(&r[i]), r[i].err);
		cr_expect_str_empty(r[i].out, "%s", run_name[i]);
		cr_expect_eq(count_lines(r[i].err), 1, "%s: %s", run_name[i], r[i].err);
		cr_expect(strstr(r[i].err, "libneed.so") != 0, "%s: %s", run_name[i], r[i].err);
	}
	free3(r);
}

Test(i386, missing_library)
{
	load_error("need/nonexistent");
}

Test(i386, wrong_architecture_library)
{
	load_error("need/x86_64");
}

/* A broken object that musl's loader does not check (it crashes or runs
 * on): quickbind as PT_INTERP, as a command and in --list mode exits 127
 * with one line naming the object and the reason, never by a signal. */
static void qb_rejects(const char *prog, const char *libdir, const char *object, const char *reason)
{
	char lp[4200], qb[4096], musl[4096];
	snprintf(lp, sizeof lp, "LD_LIBRARY_PATH=%s", path(libdir));
	snprintf(qb, sizeof qb, "%s.qb", path(prog));
	snprintf(musl, sizeof musl, "%s.musl", path(prog));
	char *env[] = { lp, 0 };
	char *argvs[3][4] = { { qb, 0 }, { I3_LOADER, musl, 0 }, { I3_LOADER, "--list", musl, 0 } };
	const char *how[3] = { "PT_INTERP", "command", "--list" };
	for (int i = 0; i < 3; i++) {
		struct run_result r;
		run_ok(&r, argvs[i], env);
		cr_expect(r.exited && r.exit_code == 127, "%s: %s\n%s", how[i], run_describe(&r), r.err);
		cr_expect_eq(count_lines(r.err), 1, "%s: %s", how[i], r.err);
		cr_expect(strstr(r.err, object) && strstr(r.err, reason), "%s: %s", how[i], r.err);
		if (i < 2)
			cr_expect_str_empty(r.out, "%s", how[i]);
		run_result_free(&r);
	}
}

/* Issue 11: a GNU hash bucket of 0x80000000 passed the 32-bit size checks
 * and the loader died of SIGBUS. */
Test(i386, gnu_hash_sizes_that_wrap_32_bits)
{
	qb_rejects("need/prog", "need/gnubucket", "libneed.so", "DT_GNU_HASH");
}

/* Issue 11: PT_GNU_RELRO over addresses the library does not own. */
Test(i386, relro_outside_the_writable_segments)
{
	qb_rejects("need/prog", "need/relro", "libneed.so", "PT_GNU_RELRO");
}

/* Issue 11: the program's PT_TLS size, mapped by the kernel or not. */
Test(i386, program_tls_size_wraps)
{
	qb_rejects("tlsbad/prog", "need/link", "prog", "TLS segment too large");
}
