/* Integration tests: real musl programs and libraries (tests/loader/) run
 * under the loader under test, as PT_INTERP and by direct invocation, must
 * behave exactly as under musl's own loader. */
#include <criterion/criterion.h>
#include <string.h>

#include "lib/compare.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static const char *const here[] = {"LD_LIBRARY_PATH=.", NULL};

Test(loader, tls_in_threads)
{
	/* initial-exec, general-dynamic and TLSDESC, 64- and 4096-byte
	 * alignment, in the executable and two libraries, in 9 threads */
	struct lt_case c = {.dir = "tls", .prog = "prog", .env = here};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, init_fini_order)
{
	struct lt_case c = {.dir = "initfini", .prog = "prog", .env = here};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

static void expect_copy_reloc(const char *prog)
{
	const char *argv[] = {"/usr/bin/readelf", "-rW", lt_fixture_path(prog), NULL};
	struct run_result r;
	cr_assert(run_program(&r, (char *const *)argv, NULL) == 0);
	cr_assert(strstr(r.out, "R_X86_64_COPY") && strstr(r.out, "cr_counter"),
		  "fixture %s has no copy relocation for cr_counter:\n%s", prog, r.out);
	run_result_free(&r);
}

Test(loader, copy_relocations_pie)
{
	struct lt_case c = {.dir = "copyreloc", .prog = "prog", .env = here};
	expect_copy_reloc("copyreloc/prog.musl");
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, copy_relocations_et_exec)
{
	struct lt_case c = {.dir = "copyreloc", .prog = "prog_nopie", .env = here};
	expect_copy_reloc("copyreloc/prog_nopie.musl");
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, executable_interposes_on_library)
{
	struct lt_case c = {.dir = "interpose", .prog = "prog", .env = here};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, weak_and_duplicate_symbols_w1_first)
{
	struct lt_case c = {.dir = "weak", .prog = "prog12", .env = here};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, weak_and_duplicate_symbols_w2_first)
{
	struct lt_case c = {.dir = "weak", .prog = "prog21", .env = here};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, origin_in_runpath)
{
	struct lt_case c = {.dir = "origin", .prog = "bin/prog_runpath"};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, origin_in_rpath)
{
	struct lt_case c = {.dir = "origin", .prog = "bin/prog_rpath"};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, origin_from_another_cwd)
{
	/* $ORIGIN is the directory of the object, not the working directory */
	struct lt_case c = {.dir = "origin/lib", .prog = "../bin/prog_runpath"};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, same_file_under_two_names_loaded_once)
{
	struct lt_case c = {.dir = "once", .prog = "bin/prog"};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, ld_library_path_first_directory_wins)
{
	struct lt_case c = {.dir = "libpath", .prog = "prog",
			    .env = ARGS("LD_LIBRARY_PATH=b:a")};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, ld_library_path_skips_missing_directories)
{
	struct lt_case c = {.dir = "libpath", .prog = "prog",
			    .env = ARGS("LD_LIBRARY_PATH=/nonexistent/qbt:a")};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, library_graph_of_60)
{
	struct lt_case c = {.dir = "graph", .prog = "prog", .env = here};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

Test(loader, libc_heavy_program)
{
	struct lt_case c = {.dir = "stdio", .prog = "prog",
			    .args = ARGS("one", "two words", ""),
			    .env = ARGS("QBT_FIRST=one", "QBT_SECOND=two"),
			    .compare_stderr = 1};
	cr_assert_eq(lt_expect_same(&c), 2, "both quickbind runs must pass");
}

/* valgrind runs the loader itself as its client: it must find no error in
 * it, as it finds none in musl's loader running the same program. */
static void run_valgrind(struct run_result *r, const char *loader, const char *prog)
{
	const char *argv[] = {"/usr/bin/valgrind", "-q", "--error-exitcode=99", loader, prog, NULL};
	char *const env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", "LD_LIBRARY_PATH=.", NULL};
	struct run_opts o = {.cwd = lt_fixture_path("tls"), .envp = env, .timeout_s = 120};
	cr_assert(run_program(r, (char *const *)argv, &o) == 0);
}

Test(loader, valgrind_finds_no_error, .timeout = 180)
{
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
