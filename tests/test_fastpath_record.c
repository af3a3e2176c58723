/* The launch record: a program linkopt optimized binds its start-up from
 * the record it holds when the load is the one recorded, and declines it
 * whole otherwise (a preload that defines a name of the load, a replaced
 * library); verify mode and the
 * statistics watch the record's bindings as they are made; LD_NORECORD
 * turns it off alone. Every case compares with musl's loader. Compiled
 * once per architecture (see fpcommon.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastpath/fpcommon.h"
#include "qbtable.h"

static struct fp_run ref = {.dir = "weak", .prog = "prog", .libpath = "."};

Test(FP_SUITE(record), startup_bound_from_the_record)
{
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .record = 1};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	/* the weak w_absent nothing defines, libw3's wdata (on x86_64 the
	 * program's copy), the vague names of libraries outside each
	 * other's closure: all the record's */
	cr_expect(strstr(r.out, "main: vague=w1-weak w2_vague=w1-weak wdata=1 w2_absent=none"), "%s", r.out);
	cr_expect(strstr(r.err, "launch record: held"), "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "launch_record"), 0, "%s", r.err);
	cr_expect_eq(fp_stat(r.err, "start-up", "scope_definers"), 0, "%s", r.err);
	run_result_free(&r);
}

/* A preloaded library takes the vague names: the record, made without
 * it, is declined whole and the lookup gives musl's answers. */
Test(FP_SUITE(record), declined_by_a_preload)
{
	struct fp_run pref = {.dir = "weak", .prog = "prog", .libpath = ".", .env = ENV("LD_PRELOAD=./libwpre.so")};
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .record = 1,
			    .env = ENV("LD_PRELOAD=./libwpre.so")};
	struct run_result r;
	fp_expect_same(&pref, &qb, &r);
	cr_expect(strstr(r.out, "vague=preload"), "%s", r.out);
	cr_expect(strstr(r.out, "w2_absent=preload"), "%s", r.out);
	cr_expect(strstr(r.err, "launch record: declined"), "%s", r.err);
	cr_expect_eq(fp_stat(r.err, "start-up", "launch_record"), 0, "%s", r.err);
	run_result_free(&r);
}

/* A preload that defines no name of the load (libwfp's names share
 * only the low bits of their hashes with the vague ones): every answer
 * stands, and the record holds with it. */
Test(FP_SUITE(record), held_beside_a_preload_that_defines_none_of_its_names)
{
	struct fp_run pref = {.dir = "weak", .prog = "prog", .libpath = ".", .env = ENV("LD_PRELOAD=./libwfp.so")};
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .record = 1,
			    .env = ENV("LD_PRELOAD=./libwfp.so")};
	struct run_result r;
	fp_expect_same(&pref, &qb, &r);
	cr_expect(strstr(r.out, "vague=w1-weak"), "%s", r.out);
	cr_expect(strstr(r.err, "launch record: held"), "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "launch_record"), 0, "%s", r.err);
	run_result_free(&r);
}

/* libw1 as built (another identity) in place of the optimized one. */
Test(FP_SUITE(record), declined_by_a_replaced_library)
{
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "orig:opt", .record = 1};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.err, "launch record: declined"), "%s", r.err);
	cr_expect_eq(fp_stat(r.err, "start-up", "launch_record"), 0, "%s", r.err);
	run_result_free(&r);
}

/* LD_NORECORD=1: the record is not read; the other fast paths bind. */
Test(FP_SUITE(record), ld_norecord_turns_off_the_record_alone)
{
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .record = 1,
			    .env = ENV("LD_NORECORD=1")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(!strstr(r.err, "launch record:"), "%s", r.err);
	cr_expect_eq(fp_stat(r.err, "start-up", "launch_record"), 0, "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "precomputed_hashes"), 0, "%s", r.err);
	run_result_free(&r);
}

/* The generated application of 50 libraries in verify mode: every
 * answer the record gives is the standard lookup's. */
Test(FP_SUITE(record), app50_record_verified)
{
	struct fp_run aref = {.dir = "app", .prog = "prog", .libpath = "."};
	struct fp_run qb = {.dir = "app", .prog = "opt/prog", .libpath = "opt", .record = 1,
			    .env = ENV("LD_DIRECT_VERIFY=1")};
	struct run_result r;
	fp_expect_same(&aref, &qb, &r);
	cr_expect(strstr(r.err, "launch record: held"), "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "launch_record"), 500, "%s", r.err);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	run_result_free(&r);
}

/* The file offset of path's quickbind table. */
static long table_at(const char *file)
{
	struct shell_result s = shell("readelf -SW '%s' | sed -n 's/.*\\.qb\\.table *PROGBITS *[0-9a-f]* \\([0-9a-f]*\\) .*/\\1/p'", file);
	long tab = strtol(s.out, NULL, 16);
	shell_result_free(&s);
	cr_assert(tab > 0, "no quickbind table in %s", file);
	return tab;
}

/* The table's file offset and the program's answers in it (linkopt
 * --dump): the answers of object 0, count of them. */
static long answers_at(const char *file, unsigned *count)
{
	long tab = table_at(file);
	struct shell_result s = shell("'%s' --dump '%s' | sed -n 's/^launch record \\[0\\]: .*, \\([0-9]*\\) symbols at offset \\(0x[0-9a-f]*\\),.*/\\1 \\2/p'",
		  fp_linkopt(), file);
	unsigned at;
	int ok = sscanf(s.out, "%u %x", count, &at) == 2;
	shell_result_free(&s);
	cr_assert(ok && tab > 0, "no launch record in %s", file);
	return tab + at;
}

/* One answer of the record moved to another address: the program runs
 * with it (verify mode changes nothing), and verify mode names the
 * reference with both answers. */
Test(FP_SUITE(record), verify_reports_a_corrupted_answer)
{
	const char *dir = lt_fixture_path("weak");
	shell_ok("copy", "rm -rf '%s/rec-bad' && cp -a '%s/opt' '%s/rec-bad'", dir, dir, dir);
	char file[4096];
	snprintf(file, sizeof file, "%s/rec-bad/prog", dir);
	unsigned n, changed = 0;
	long at = answers_at(file, &n);
	FILE *f = fopen(file, "r+b");
	cr_assert(f, "%s", file);
	for (unsigned i = 0; i < n && !changed; i++) {
		uint32_t a[2];
		cr_assert(fseek(f, at + 8L * i, SEEK_SET) == 0 && fread(a, 4, 2, f) == 2);
		if (a[0] == QB_LAUNCH_ASK || a[0] == QB_LAUNCH_NONE)
			continue;
		a[1] += 8;
		cr_assert(fseek(f, at + 8L * i, SEEK_SET) == 0 && fwrite(a, 4, 2, f) == 2);
		changed = 1;
	}
	fclose(f);
	cr_assert(changed, "no answer to corrupt in %s", file);
	struct run_result r;
	fp_exec(&r, lt_loader(), &(struct fp_run){.dir = "weak", .prog = "rec-bad/prog", .libpath = "opt",
		.record = 1, .env = ENV("LD_DIRECT_VERIFY=1", "LD_DEBUG=statistics")});
	cr_expect(strstr(r.err, "launch record: held"), "%s", r.err);
	cr_expect(strstr(r.err, "verify: ./rec-bad/prog: ") && strstr(r.err, "standard lookup gives"), "%s", r.err);
	run_result_free(&r);
}

/* The recorded definition values (FORMAT.md 2.3) of libg1 moved, with
 * the record off: the valued loop binds by them as it runs, and verify
 * mode, watching that loop, names the references. */
Test(FP_SUITE(record), verify_reports_corrupted_values_in_the_hinted_loop)
{
	const char *dir = lt_fixture_path("app");
	shell_ok("copy", "rm -rf '%s/val-bad' && cp -a '%s/opt' '%s/val-bad'", dir, dir, dir);
	char file[4096];
	snprintf(file, sizeof file, "%s/val-bad/libg1.so", dir);
	long tab = table_at(file);
	FILE *f = fopen(file, "r+b");
	cr_assert(f, "%s", file);
	struct qb_table_hdr h;
	cr_assert(fseek(f, tab, SEEK_SET) == 0 && fread(&h, sizeof h, 1, f) == 1);
	cr_assert(h.flags & QB_TF_VALUES, "no values in %s", file);
	unsigned moved = 0;
	for (uint32_t i = 1, v; i < h.nsyms; i++) {
		cr_assert(fseek(f, tab + h.value_off + 4L * i, SEEK_SET) == 0 && fread(&v, 4, 1, f) == 1);
		if (!v)
			continue;
		v += 8;
		cr_assert(fseek(f, tab + h.value_off + 4L * i, SEEK_SET) == 0 && fwrite(&v, 4, 1, f) == 1);
		moved++;
	}
	fclose(f);
	cr_assert(moved, "no value recorded in %s", file);
	struct run_result r;
	fp_exec(&r, lt_loader(), &(struct fp_run){.dir = "app", .prog = "val-bad/prog", .libpath = "val-bad",
		.env = ENV("LD_DIRECT_VERIFY=1", "LD_DEBUG=statistics")});
	cr_expect(has_line(r.err, "verify: val-bad/libg1.so: ", ": direct binding gives "), "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	run_result_free(&r);
}

/* linkopt --check names a launch record that no longer holds when
 * nothing else of the program's tables says so: another loader than the
 * one recorded (a replaced library is named as the hints' target). */
Test(FP_SUITE(record), check_reports_a_stale_record)
{
	const char *dir = lt_fixture_path("weak");
	struct shell_result s = shell("cd '%s' && '%s' --check -L opt opt/prog", dir, fp_linkopt());
	cr_expect_eq(s.status, 0, "%s%s", s.out, s.err);
	shell_result_free(&s);
	s = shell("cd '%s' && '%s' --check -L orig -L opt opt/prog", dir, fp_linkopt());
	cr_expect_eq(s.status, 1, "%s%s", s.out, s.err);
	cr_expect(strstr(s.out, "libw1.so changed since linkopt ran"), "%s", s.out);
	shell_result_free(&s);
	s = shell("cd '%s' && '%s' --check --loader '%s' -L opt opt/prog", dir, fp_linkopt(), lt_musl_ldso());
	cr_expect_eq(s.status, 1, "%s%s", s.out, s.err);
	cr_expect(strstr(s.out, "the loader changed since linkopt ran: the launch record is declined"), "%s", s.out);
	shell_result_free(&s);
}

/* LD_DEBUG=bindings and direct watch the path that runs: the record
 * still binds, and each of its bindings is reported. */
Test(FP_SUITE(record), debug_output_watches_the_record)
{
	struct fp_run qb = {.dir = "weak", .prog = "opt/prog", .libpath = "opt", .record = 1,
			    .env = ENV("LD_DEBUG=bindings,direct,statistics")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(strstr(r.err, "launch record: held"), "%s", r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "launch_record"), 0, "%s", r.err);
	cr_expect(has_line(r.err, "binding file ./opt/prog to ", "symbol `w3_report'"), "%s", r.err);
	run_result_free(&r);
}
