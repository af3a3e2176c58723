/* i386: 32-bit tables the loader must not trust (corrupted by qbcorrupt32)
 * and the run-time switches that turn each fast path off. The program
 * always behaves as under musl's i386 loader, never crashes, and the
 * statistics show which path was taken. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "i3fhelp.h"

/* prog_plain with interpose/opt/libuser.so replaced by corrupt/FIELD/. */
static void run_corrupt(struct run_result *r, const char *field)
{
	char libpath[256];
	snprintf(libpath, sizeof libpath, "../corrupt/%s:opt", field);
	struct fp_run ref = {.dir = "interpose", .prog = "prog_plain", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain", .libpath = libpath,
			    .env = ENV("LD_DEBUG=statistics,direct")};
	fp_expect_same(&ref, &qb, r);
	cr_assert(has_line(r->err, "corrupt/", "libuser.so"), "the corrupted libuser.so was not loaded:\n%s", r->err);
}

static void syminfo_corrupt(const char *field, int noted)
{
	struct run_result r;
	run_corrupt(&r, field);
	cr_expect(!has_line(r.err, "libuser.so: ", " -> "),
		  "libuser.so bound directly through a corrupted DT_SYMINFO (%s):\n%s", field, r.err);
	if (noted)
		cr_expect(has_line(r.err, "DT_SYMINFO", "libuser.so"),
			  "no LD_DEBUG note about the invalid DT_SYMINFO (%s):\n%s", field, r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0, "other objects' tables stopped working");
	run_result_free(&r);
}

static void qbtable_corrupt(const char *field)
{
	struct run_result r;
	run_corrupt(&r, field);
	cr_expect(has_line(r.err, "quickbind table", "libuser.so") && strstr(r.err, "fails validation"),
		  "no LD_DEBUG note about the invalid table (%s):\n%s", field, r.err);
	run_result_free(&r);
}

static void hints_untrusted(const char *field, const char *note)
{
	struct run_result r;
	run_corrupt(&r, field);
	if (note)
		cr_expect(has_line(r.err, "libuser.so", note), "no note (%s):\n%s", field, r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	run_result_free(&r);
}

Test(i386_corrupt, si_boundto_out_of_range) { syminfo_corrupt("boundto_range", 0); }
Test(i386_corrupt, si_boundto_not_a_needed_entry) { syminfo_corrupt("boundto_notneeded", 0); }
Test(i386_corrupt, syminfo_address_outside_the_object) { syminfo_corrupt("syminfo_addr", 1); }
Test(i386_corrupt, syminsz_too_small) { syminfo_corrupt("syminsz_small", 1); }
Test(i386_corrupt, syminent_wrong) { syminfo_corrupt("syminent_wrong", 1); }
Test(i386_corrupt, table_magic) { qbtable_corrupt("magic"); }
Test(i386_corrupt, table_version) { qbtable_corrupt("version"); }
Test(i386_corrupt, table_hdr_size_too_small) { qbtable_corrupt("hdr_size_small"); }
Test(i386_corrupt, table_hdr_size_too_big) { qbtable_corrupt("hdr_size_big"); }
Test(i386_corrupt, table_nsyms) { qbtable_corrupt("nsyms"); }
Test(i386_corrupt, table_gnu_off_out_of_range) { qbtable_corrupt("gnu_off"); }
Test(i386_corrupt, table_gnu_off_unaligned) { qbtable_corrupt("gnu_off_unaligned"); }
Test(i386_corrupt, tablesz_too_big) { qbtable_corrupt("tablesz_big"); }
Test(i386_corrupt, table_address_outside_the_object) { qbtable_corrupt("table_addr"); }
Test(i386_corrupt, table_hint_off_out_of_range) { qbtable_corrupt("hint_off"); }
/* SysV hash values exist only in the SysV-only build (sysv/). */
Test(i386_corrupt, table_sysv_off_out_of_range)
{
	struct fp_run ref = {.dir = "sysv", .prog = "prog_exe", .libpath = "."};
	struct fp_run qb = {.dir = "sysv", .prog = "opt/prog_exe", .libpath = "../corrupt/sysv_off/sysv:opt",
			    .env = ENV("LD_DEBUG=statistics,direct")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect(has_line(r.err, "quickbind table", "corrupt/sysv_off/sysv/libuser.so") &&
		  strstr(r.err, "fails validation"), "no LD_DEBUG note about the invalid table:\n%s", r.err);
	run_result_free(&r);
}

Test(i386_corrupt, hints_naming_other_symbols) { hints_untrusted("hints_wrong", NULL); }
Test(i386_corrupt, needed_identity_mismatch) { hints_untrusted("needed_id", "no definition hints"); }

/* ------------------------------------------------------------ switches -- */

/* prog_exe exercises every fast path: direct hits, the executable's greet
 * found by the interposer check, precomputed hashes, definition hints and
 * repeated relocations against core_twice and core_value (symbol cache). */
struct counters {
	long direct_hits, direct_misses, interposer_hits, prehashed, hashed, cache, hints;
};

static struct counters run_switch(const char *const *env, struct run_result *keep)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_exe", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_exe", .libpath = "opt", .env = env};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	struct counters c = {
		fp_stat(r.err, "start-up", "direct_hits"),
		fp_stat(r.err, "start-up", "direct_misses"),
		fp_stat(r.err, "start-up", "interposer_hits"),
		fp_stat(r.err, "start-up", "precomputed_hashes"),
		fp_stat(r.err, "start-up", "names_hashed"),
		fp_stat(r.err, "start-up", "cache_reuses"),
		fp_stat(r.err, "start-up", "definition_hints"),
	};
	if (keep)
		*keep = r;
	else
		run_result_free(&r);
	return c;
}

Test(i386_switches, all_fast_paths_on_by_default)
{
	struct counters c = run_switch(NULL, NULL);
	cr_expect_gt(c.direct_hits, 0);
	cr_expect_gt(c.interposer_hits, 0);
	cr_expect_gt(c.prehashed, 0);
	cr_expect_gt(c.cache, 0);
	cr_expect_gt(c.hints, 0);
	cr_expect_eq(c.direct_misses, 0);
}

Test(i386_switches, ld_nodirect)
{
	struct counters c = run_switch(ENV("LD_NODIRECT=1"), NULL);
	cr_expect_eq(c.direct_hits, 0);
	cr_expect_eq(c.direct_misses, 0);
	cr_expect_eq(c.interposer_hits, 0);
	cr_expect_gt(c.prehashed, 0, "LD_NODIRECT also turned precomputed hashes off");
	cr_expect_gt(c.cache, 0, "LD_NODIRECT also turned the symbol cache off");
}

Test(i386_switches, ld_nohashvals)
{
	struct counters on = run_switch(NULL, NULL);
	struct counters c = run_switch(ENV("LD_NOHASHVALS=1"), NULL);
	cr_expect_eq(c.prehashed, 0);
	cr_expect_gt(c.hashed, on.hashed, "names were not hashed instead of taken from the table");
	cr_expect_gt(c.direct_hits, 0, "LD_NOHASHVALS also turned direct binding off");
}

Test(i386_switches, ld_nosymcache)
{
	struct counters c = run_switch(ENV("LD_NOSYMCACHE=1"), NULL);
	cr_expect_eq(c.cache, 0);
	cr_expect_gt(c.direct_hits, 0, "LD_NOSYMCACHE also turned direct binding off");
	cr_expect_gt(c.prehashed, 0, "LD_NOSYMCACHE also turned precomputed hashes off");
}

Test(i386_switches, ld_nohints)
{
	struct counters c = run_switch(ENV("LD_NOHINTS=1"), NULL);
	cr_expect_eq(c.hints, 0);
	cr_expect_gt(c.direct_hits, 0, "LD_NOHINTS also turned direct binding off");
	cr_expect_gt(c.prehashed, 0);
}

Test(i386_switches, ld_direct_verify)
{
	struct run_result r;
	struct counters c = run_switch(ENV("LD_DIRECT_VERIFY=1"), &r);
	cr_expect_gt(c.direct_hits, 0);
	cr_expect_gt(c.interposer_hits, 0);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	cr_expect(!strstr(r.err, "verify: "), "a difference reported:\n%s", r.err);
	run_result_free(&r);
}

Test(i386_switches, all_off_together)
{
	struct counters c = run_switch(ENV("LD_NODIRECT=1", "LD_NOHASHVALS=1", "LD_NOSYMCACHE=1", "LD_NOHINTS=1"), NULL);
	cr_expect_eq(c.direct_hits, 0);
	cr_expect_eq(c.interposer_hits, 0);
	cr_expect_eq(c.prehashed, 0);
	cr_expect_eq(c.cache, 0);
	cr_expect_eq(c.hints, 0);
}
