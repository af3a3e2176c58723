/* Integration tests: real musl programs and libraries (tests/loader/) run
 * under the loader under test, as PT_INTERP and by direct invocation, must
 * behave exactly as under musl's own loader of the same architecture.
 * Compiled once per architecture (see loader/arch.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "lib/compare.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static const char *const here[] = {"LD_LIBRARY_PATH=.", NULL};

#define EXPECT_SAME(...) \
	do { \
		struct lt_case c_ = {__VA_ARGS__}; \
		cr_assert_eq(lt_expect_same(&c_), 2, "both quickbind runs must pass"); \
	} while (0)

/* readelf -rW of a fixture shows relocation kind against symbol. */
static void expect_reloc(const char *file, const char *kind, const char *symbol)
{
	const char *argv[] = {"/usr/bin/readelf", "-rW", lt_fixture_path(file), NULL};
	struct run_result r;
	cr_assert(run_program(&r, (char *const *)argv, NULL) == 0);
	int found = 0;
	for (const char *l = r.out; l && *l && !found; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *k = strstr(l, kind), *s = strstr(l, symbol), *e = strchr(l, '\n');
		found = k && s && (!e || (k < e && s < e));
	}
	cr_assert(found, "fixture %s has no %s relocation against %s:\n%s", file, kind, symbol, r.out);
	run_result_free(&r);
}

Test(LT_SUITE(loader), tls_in_threads)
{
	/* initial-exec, general-dynamic and TLSDESC (and on i386 the Sun
	 * form of initial exec), 64- and 4096-byte alignment, in the
	 * executable and two libraries, in 9 threads */
	EXPECT_SAME(.dir = "tls", .prog = "prog", .env = here);
}

Test(LT_SUITE(loader), dynamic_tls_of_dlopened_libraries_in_existing_threads)
{
	/* general dynamic and TLSDESC, in threads started before dlopen */
	struct lt_case c = {.dir = "dlopen", .prog = "prog", .env = here};
	struct run_result ref;
	lt_run(&ref, &c, LT_WAY_REF);
	cr_expect(strstr(ref.out, "thread 3: libdyngd.so=43,gd-3 libdyndesc.so=43,desc-3\n"),
		  "the reference does not show the threads' own copies:\n%s", ref.out);
	run_result_free(&ref);
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(LT_SUITE(loader), init_fini_order)
{
	EXPECT_SAME(.dir = "initfini", .prog = "prog", .env = here);
}

/* On x86_64 a PIE's references to a library's data are copy relocations;
 * on i386 they go through the GOT. */
Test(LT_SUITE(loader), data_of_a_library_in_a_pie)
{
	expect_reloc("copyreloc/prog.musl", LT_R_PIE_DATA, "cr_counter");
	EXPECT_SAME(.dir = "copyreloc", .prog = "prog", .env = here);
}

Test(LT_SUITE(loader), copy_relocations_et_exec)
{
	expect_reloc("copyreloc/prog_nopie.musl", LT_R_COPY, "cr_counter");
	expect_reloc("copyreloc/prog_nopie.musl", LT_R_COPY, "cr_msg");
	EXPECT_SAME(.dir = "copyreloc", .prog = "prog_nopie", .env = here);
}

Test(LT_SUITE(loader), executable_interposes_on_library)
{
	EXPECT_SAME(.dir = "interpose", .prog = "prog", .env = here);
}

Test(LT_SUITE(loader), weak_and_duplicate_symbols_w1_first)
{
	EXPECT_SAME(.dir = "weak", .prog = "prog12", .env = here);
}

Test(LT_SUITE(loader), weak_and_duplicate_symbols_w2_first)
{
	EXPECT_SAME(.dir = "weak", .prog = "prog21", .env = here);
}

Test(LT_SUITE(loader), origin_in_runpath)
{
	EXPECT_SAME(.dir = "origin", .prog = "bin/prog_runpath");
}

Test(LT_SUITE(loader), origin_in_rpath)
{
	EXPECT_SAME(.dir = "origin", .prog = "bin/prog_rpath");
}

Test(LT_SUITE(loader), origin_from_another_cwd)
{
	/* $ORIGIN is the directory of the object, not the working directory */
	EXPECT_SAME(.dir = "origin/lib", .prog = "../bin/prog_runpath");
}

Test(LT_SUITE(loader), same_file_under_two_names_loaded_once)
{
	EXPECT_SAME(.dir = "once", .prog = "bin/prog");
}

Test(LT_SUITE(loader), ld_library_path_first_directory_wins)
{
	EXPECT_SAME(.dir = "libpath", .prog = "prog", .env = ARGS("LD_LIBRARY_PATH=b:a"));
}

Test(LT_SUITE(loader), ld_library_path_skips_missing_directories)
{
	EXPECT_SAME(.dir = "libpath", .prog = "prog",
		    .env = ARGS("LD_LIBRARY_PATH=/nonexistent/qbt:a"));
}

Test(LT_SUITE(loader), library_graph_of_60)
{
	EXPECT_SAME(.dir = "graph", .prog = "prog", .env = here);
}

Test(LT_SUITE(loader), libc_heavy_program)
{
	/* and main's return value, 7, reaches the parent */
	EXPECT_SAME(.dir = "stdio", .prog = "prog", .args = ARGS("one", "two words", ""),
		    .env = ARGS("QBT_FIRST=one", "QBT_SECOND=two"), .compare_stderr = 1,
		    .exit_status = 7);
}

/* musl 1.2.3's loader has no DT_RELR: the reference is the same program
 * and library linked without it (relr/plain/). */
Test(LT_SUITE(loader), relr_packed_relative_relocations)
{
	const char *argv[] = {"/usr/bin/readelf", "-dW", lt_fixture_path("relr/librelr.so"), NULL};
	struct run_result r;
	cr_assert(run_program(&r, (char *const *)argv, NULL) == 0);
	cr_assert(strstr(r.out, "(RELR)"), "relr/librelr.so has no DT_RELR:\n%s", r.out);
	run_result_free(&r);
	expect_reloc("relr/plain/librelr.so", LT_R_RELATIVE, "");
	EXPECT_SAME(.dir = "relr", .prog = "prog", .env = here, .ref = LT_REF_PLAIN);
}

/* "Start of program headers: N (bytes into file)" of readelf -hW. */
static long phoff_of(const char *file)
{
	const char *argv[] = {"/usr/bin/readelf", "-hW", lt_fixture_path(file), NULL};
	struct run_result r;
	cr_assert(run_program(&r, (char *const *)argv, NULL) == 0);
	const char *at = strstr(r.out, "Start of program headers:");
	long v = at ? strtol(at + strlen("Start of program headers:"), NULL, 10) : -1;
	run_result_free(&r);
	return v;
}

/* A plugin's pthread key destructor and signal handler run after its
 * dlclose (../shared/repro/parity/03-dlclose-unmaps-pthread-key-dtor): the plugin must still be there, by
 * default as under musl, and with LD_DLCLOSE=unload because the loader
 * sees the registration (key destructor) or asks the kernel (handler). */
Test(LT_SUITE(loader), dlclose_keeps_what_a_key_destructor_or_handler_needs)
{
	EXPECT_SAME(.dir = "keep", .prog = "host");
	EXPECT_SAME(.dir = "keep", .prog = "sighost");
	EXPECT_SAME(.dir = "keep", .prog = "host", .env = ARGS("LD_DLCLOSE=unload"));
	EXPECT_SAME(.dir = "keep", .prog = "sighost", .env = ARGS("LD_DLCLOSE=unload"));
}

/* One library laid out four ways (tests/loader.mk, layout): data, bss
 * and constructor fresh at each of two loads, every segment mapped with
 * its header's protections, the gaps between segments inaccessible, and
 * the library and its dependency gone after dlclose (LD_DLCLOSE=unload).
 * glibc, which unloads at dlclose, is the reference. */
Test(LT_SUITE(loader), segment_layouts_loaded_and_unloaded)
{
#ifdef QB_TEST_NOEXT
	cr_skip_test("unloading (LD_DLCLOSE=unload) is an extension; this loader has none");
#endif
	cr_assert_gt(phoff_of("layout/phmove/liblay.so"), 1024,
		"phmove/liblay.so must keep its program headers out of the first read");
	EXPECT_SAME(.dir = "layout", .prog = "prog", .ref = LT_REF_GLIBC, .env = ARGS("LD_DLCLOSE=unload"),
		    .args = ARGS("./plain/liblay.so", "./gap/liblay.so", "./gap4k/liblay.so",
				 "./phmove/liblay.so"));
}

#ifdef LT_ARCH_I386
/* i386 only: musl redirects the time functions of 32-bit architectures to
 * their time64 symbols; x86_64's time_t has always been 64 bits. dlsym by
 * the plain name must give what the program's own references bind to. */
Test(LT_SUITE(loader), dlsym_time64_redirection)
{
	struct lt_case c = {.dir = "time64", .prog = "prog", .compare_stderr = 1};
	struct run_result ref;
	lt_run(&ref, &c, LT_WAY_REF);
	/* the reference itself shows the redirection at work */
	cr_expect(strstr(ref.out, "sizeof(time_t)=8\nclock_gettime: 1\n"), "%s", ref.out);
	cr_expect(strstr(ref.out, "call through dlsym: 0, after 2020: 1"), "%s", ref.out);
	run_result_free(&ref);
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}
#endif

/* valgrind runs the loader itself as its client: it must find no error in
 * it, as it finds none in musl's loader running the same program. */
static void run_valgrind(struct run_result *r, const char *loader, const char *prog)
{
	const char *argv[] = {"/usr/bin/valgrind", "-q", "--error-exitcode=99", loader, prog, NULL};
	char *const env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", "LD_LIBRARY_PATH=.", NULL};
	struct run_opts o = {.cwd = lt_fixture_path("tls"), .envp = env, .timeout_s = 120};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0);
}

Test(LT_SUITE(loader), valgrind_finds_no_error, .timeout = 180)
{
	LT_NEEDS_TRACEABLE_PROCESS();
	struct run_result ref, r;
	run_valgrind(&ref, lt_musl_ldso(), "./prog.musl");
	cr_assert(ref.exited && ref.exit_code == 0,
		  "valgrind on musl's loader: %s\n%s", run_describe(&ref), ref.err);
	run_valgrind(&r, lt_loader(), "./prog.musl");
	cr_expect(r.exited && r.exit_code == 0, "valgrind on %s: %s\n%s", lt_loader(),
		  run_describe(&r), r.err);
	cr_expect(!strcmp(r.out, ref.out), "stdout differs\n--- reference:\n%s--- got:\n%s",
		  ref.out, r.out);
	run_result_free(&ref);
	run_result_free(&r);
}

/* LD_DEBUG for people: bindings are the program's objects' (the loader
 * binding its own references is left out), and statistics say what each
 * figure counts and in which unit. */
Test(LT_SUITE(loader), ld_debug_bindings_and_statistics_for_people)
{
	const char *const env[] = {"LD_LIBRARY_PATH=.", "LD_DEBUG=bindings,statistics", NULL};
	struct lt_case c = {.dir = "tls", .prog = "prog", .env = env};
	struct run_result r;
	lt_run(&r, &c, LT_WAY_INTERP);
	cr_assert(r.exited && r.exit_code == 0, "%s\n%s", run_describe(&r), r.err);
	char own[4200];
	snprintf(own, sizeof own, "binding file %s ", lt_loader());
	cr_expect(strstr(r.err, "binding file "), "no binding reported:\n%s", r.err);
	cr_expect(!strstr(r.err, own), "the loader's own bindings are reported:\n%s", r.err);
	cr_expect(strstr(r.err, "statistics: counts since start-up: objects loaded;"),
		  "no line says what the statistics count:\n%s", r.err);
	const char *t = strstr(r.err, "relocation_time=");
	cr_expect(t && strstr(t, " ms\n"), "the relocation time has no unit:\n%s", r.err);
	run_result_free(&r);
}
