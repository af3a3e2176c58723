/* Tables the loader must not trust, and the switches that turn each fast
 * path off: the program always behaves as under musl's loader, never
 * crashes, and the statistics show which path was taken.
 * Compiled once per architecture (see fpcommon.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fpcommon.h"

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

/* A DT_SYMINFO the loader cannot trust: no direct decision for libuser. */
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

/* A quickbind table that fails validation: ignored, with a note. */
static void qbtable_corrupt(const char *field)
{
	struct run_result r;
	run_corrupt(&r, field);
	cr_expect(has_line(r.err, "quickbind table", "libuser.so") && strstr(r.err, "fails validation"),
		  "no LD_DEBUG note about the invalid table (%s):\n%s", field, r.err);
	run_result_free(&r);
}

/* Hints naming the wrong symbols, or identities no library has: the
 * loader must bind as musl does, without them. */
static void hints_untrusted(const char *field, const char *note)
{
	struct run_result r;
	run_corrupt(&r, field);
	if (note)
		cr_expect(has_line(r.err, "libuser.so", note), "no note (%s):\n%s", field, r.err);
	cr_expect_gt(fp_stat(r.err, "start-up", "direct_hits"), 0);
	run_result_free(&r);
}

Test(FP_SUITE(corrupt), si_boundto_out_of_range) { syminfo_corrupt("boundto_range", 0); }
Test(FP_SUITE(corrupt), si_boundto_not_a_needed_entry) { syminfo_corrupt("boundto_notneeded", 0); }
Test(FP_SUITE(corrupt), syminfo_address_outside_the_object) { syminfo_corrupt("syminfo_addr", 1); }
Test(FP_SUITE(corrupt), syminsz_too_small) { syminfo_corrupt("syminsz_small", 1); }
Test(FP_SUITE(corrupt), syminent_wrong) { syminfo_corrupt("syminent_wrong", 1); }
Test(FP_SUITE(corrupt), table_magic) { qbtable_corrupt("magic"); }
Test(FP_SUITE(corrupt), table_version) { qbtable_corrupt("version"); }
Test(FP_SUITE(corrupt), table_hdr_size_too_small) { qbtable_corrupt("hdr_size_small"); }
Test(FP_SUITE(corrupt), table_hdr_size_too_big) { qbtable_corrupt("hdr_size_big"); }
Test(FP_SUITE(corrupt), table_nsyms) { qbtable_corrupt("nsyms"); }
Test(FP_SUITE(corrupt), table_gnu_off_out_of_range) { qbtable_corrupt("gnu_off"); }
Test(FP_SUITE(corrupt), table_gnu_off_unaligned) { qbtable_corrupt("gnu_off_unaligned"); }
Test(FP_SUITE(corrupt), tablesz_too_big) { qbtable_corrupt("tablesz_big"); }
Test(FP_SUITE(corrupt), table_address_outside_the_object) { qbtable_corrupt("table_addr"); }
Test(FP_SUITE(corrupt), table_hint_off_out_of_range) { qbtable_corrupt("hint_off"); }
/* A GNU-hash-only table flagged as carrying SysV values past its end. */
Test(FP_SUITE(corrupt), table_sysv_off_claimed_without_sysv_values) { qbtable_corrupt("sysv_off_claimed"); }
/* SysV hash values exist only in the SysV-only build (sysv/). */
Test(FP_SUITE(corrupt), table_sysv_off_out_of_range)
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

Test(FP_SUITE(corrupt), hints_naming_other_symbols) { hints_untrusted("hints_wrong", NULL); }
Test(FP_SUITE(corrupt), hints_out_of_range) { hints_untrusted("hints_range", NULL); }
Test(FP_SUITE(corrupt), hints_at_symbol_one) { hints_untrusted("hints_low", NULL); }
Test(FP_SUITE(corrupt), syminfo_flags_beyond_direct) { hints_untrusted("si_flags", NULL); }

/* The same tables without LD_DEBUG: the hinted loop's common case (the
 * architecture's assembly version; statistics or LD_DEBUG=direct take
 * the C loop or none) must check every relocation as well: bindings as
 * musl's, no crash. */
static void lean_corrupt(const char *field)
{
	char libpath[256];
	snprintf(libpath, sizeof libpath, "../corrupt/%s:opt", field);
	struct fp_run ref = {.dir = "interpose", .prog = "prog_plain", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain", .libpath = libpath,
			    .env = ENV("LD_DEBUG=")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	cr_expect_str_empty(r.err, "%s: unexpected stderr:\n%s", field, r.err);
	run_result_free(&r);
}

Test(FP_SUITE(lean), intact_tables)
{
	struct fp_run ref = {.dir = "interpose", .prog = "prog_plain", .libpath = "."};
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain", .libpath = "opt", .env = ENV("LD_DEBUG=")};
	struct run_result r;
	fp_expect_same(&ref, &qb, &r);
	run_result_free(&r);
}
Test(FP_SUITE(lean), hints_naming_other_symbols) { lean_corrupt("hints_wrong"); }
Test(FP_SUITE(lean), hints_out_of_range) { lean_corrupt("hints_range"); }
Test(FP_SUITE(lean), hints_at_symbol_one) { lean_corrupt("hints_low"); }
Test(FP_SUITE(lean), needed_identity_mismatch) { lean_corrupt("needed_id"); }
Test(FP_SUITE(lean), si_boundto_out_of_range) { lean_corrupt("boundto_range"); }
Test(FP_SUITE(lean), si_boundto_not_a_needed_entry) { lean_corrupt("boundto_notneeded"); }
Test(FP_SUITE(lean), syminfo_flags_beyond_direct) { lean_corrupt("si_flags"); }

/* A relocation whose place is outside the writable segments: refused with
 * one line naming the object, whichever loop meets it first. */
static void place_refused(const char *debug)
{
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain",
			    .libpath = "../corrupt/reloc_offset:opt", .env = ENV(debug)};
	struct run_result r;
	fp_exec(&r, lt_loader(), &qb);
	cr_expect(r.exited && r.exit_code != 0, "%s: %s\n%s", debug, run_describe(&r), r.err);
	cr_expect(has_line(r.err, "corrupt/reloc_offset/libuser.so", "outside the writable segments"),
		  "%s: no refusal naming libuser.so:\n%s", debug, r.err);
	run_result_free(&r);
}

Test(FP_SUITE(lean), place_outside_writable_segments) { place_refused("LD_DEBUG="); }
Test(FP_SUITE(corrupt), place_outside_writable_segments) { place_refused("LD_DEBUG=statistics"); }
Test(FP_SUITE(corrupt), needed_identity_mismatch) { hints_untrusted("needed_id", "no definition hints"); }

/* A relocation whose place is in linkopt's segment, which is writable
 * only because .dynamic is there: refused, whichever loop meets it (the
 * segment's pages are given back once the object is relocated, so a
 * value written there would not stay). */
static void place_in_tables_refused(const char *debug)
{
	struct fp_run qb = {.dir = "interpose", .prog = "opt/prog_plain",
			    .libpath = "../corrupt/reloc_in_tables:opt", .env = ENV(debug)};
	struct run_result r;
	fp_exec(&r, lt_loader(), &qb);
	cr_expect(r.exited && r.exit_code != 0, "%s: %s\n%s", debug, run_describe(&r), r.err);
	cr_expect(has_line(r.err, "corrupt/reloc_in_tables/libuser.so", "outside the writable segments"),
		  "%s: no refusal naming libuser.so:\n%s", debug, r.err);
	run_result_free(&r);
}

Test(FP_SUITE(lean), place_in_linkopt_segment) { place_in_tables_refused("LD_DEBUG="); }
Test(FP_SUITE(corrupt), place_in_linkopt_segment) { place_in_tables_refused("LD_DEBUG=statistics"); }

/* ------------------------------------------------------ pages given back -- */

/* Once start-up is over, no page of a library's linkopt segment is
 * mapped: its tables, the hash table linkopt moved there and .dynamic
 * were given back, and nothing read them again. Reading .dynamic at load
 * maps the whole segment (the kernel maps the neighbours of a faulting
 * page), so the figure is what the loader released. */
static void segment_released(const char *prog, const char *const *env)
{
	struct fp_run qb = {.dir = "resident", .prog = prog, .libpath = "opt", .env = env};
	struct run_result r;
	fp_exec(&r, lt_loader(), &qb);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s\n%s", run_describe(&r), r.out, r.err);
	if (strstr(r.out, "pagemap shows no page of this process")) {
		run_result_free(&r);
		cr_skip_test("/proc/self/pagemap does not show this process's pages (qemu-user reads the host's)");
	}
	unsigned long pages = 0, dpages = 0, kb = 0;
	cr_assert(sscanf(r.out, "segment %lu pages, dynamic %lu pages, resident %lu kB", &pages, &dpages, &kb) == 3,
		  "unexpected output: %s", r.out);
	cr_expect_geq(pages, 4, "linkopt's segment of libbig.so is too small to tell: %lu pages", pages);
	cr_expect_eq(dpages, 1, "libbig.so's .dynamic is not in linkopt's segment");
	cr_expect_eq(kb, 0, "%lu kB of linkopt's %lu-page segment resident after start-up", kb, pages);
	run_result_free(&r);
}

Test(FP_SUITE(resident), linkopt_segment_given_back) { segment_released("opt/prog", NULL); }
Test(FP_SUITE(resident), linkopt_segment_given_back_without_hints)
{
	segment_released("opt/prog", ENV("LD_NOHINTS=1"));
}
Test(FP_SUITE(resident), linkopt_segment_given_back_after_dlopen) { segment_released("opt/prog_dl", NULL); }

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

Test(FP_SUITE(switches), all_fast_paths_on_by_default)
{
	struct counters c = run_switch(NULL, NULL);
	cr_expect_gt(c.direct_hits, 0);
	cr_expect_gt(c.interposer_hits, 0);
	cr_expect_gt(c.prehashed, 0);
	cr_expect_gt(c.cache, 0);
	cr_expect_gt(c.hints, 0);
	cr_expect_eq(c.direct_misses, 0);
}

Test(FP_SUITE(switches), ld_nohints)
{
	struct counters c = run_switch(ENV("LD_NOHINTS=1"), NULL);
	cr_expect_eq(c.hints, 0);
	cr_expect_gt(c.direct_hits, 0, "direct binding must stay on");
	cr_expect_gt(c.prehashed, 0);
}

Test(FP_SUITE(switches), ld_nodirect)
{
	struct counters c = run_switch(ENV("LD_NODIRECT=1"), NULL);
	cr_expect_eq(c.direct_hits, 0);
	cr_expect_eq(c.direct_misses, 0);
	cr_expect_eq(c.interposer_hits, 0);
	cr_expect_gt(c.prehashed, 0, "LD_NODIRECT also turned precomputed hashes off");
	cr_expect_gt(c.cache, 0, "LD_NODIRECT also turned the symbol cache off");
}

Test(FP_SUITE(switches), ld_nohashvals)
{
	struct counters on = run_switch(NULL, NULL);
	struct counters c = run_switch(ENV("LD_NOHASHVALS=1"), NULL);
	cr_expect_eq(c.prehashed, 0);
	cr_expect_gt(c.hashed, on.hashed, "names were not hashed instead of taken from the table");
	cr_expect_gt(c.direct_hits, 0, "LD_NOHASHVALS also turned direct binding off");
}

Test(FP_SUITE(switches), ld_nosymcache)
{
	struct counters c = run_switch(ENV("LD_NOSYMCACHE=1"), NULL);
	cr_expect_eq(c.cache, 0);
	cr_expect_gt(c.direct_hits, 0, "LD_NOSYMCACHE also turned direct binding off");
	cr_expect_gt(c.prehashed, 0, "LD_NOSYMCACHE also turned precomputed hashes off");
}

Test(FP_SUITE(switches), ld_direct_verify)
{
	struct run_result r;
	struct counters c = run_switch(ENV("LD_DIRECT_VERIFY=1"), &r);
	cr_expect_gt(c.direct_hits, 0);
	cr_expect_gt(c.interposer_hits, 0);
	cr_expect_eq(fp_stat(r.err, "start-up", "verify_differences"), 0, "%s", r.err);
	cr_expect(!strstr(r.err, "verify: "), "a difference reported:\n%s", r.err);
	run_result_free(&r);
}

Test(FP_SUITE(switches), all_off_together)
{
	struct counters c = run_switch(ENV("LD_NODIRECT=1", "LD_NOHASHVALS=1", "LD_NOSYMCACHE=1", "LD_NOHINTS=1"), NULL);
	cr_expect_eq(c.direct_hits, 0);
	cr_expect_eq(c.interposer_hits, 0);
	cr_expect_eq(c.prehashed, 0);
	cr_expect_eq(c.cache, 0);
	cr_expect_eq(c.hints, 0);
}
