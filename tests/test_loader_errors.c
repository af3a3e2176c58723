/* Broken inputs: the loader under test must fail with exit status 127 and one
 * stderr line naming the object and the reason, never crash. prog needs
 * libqbtbad.so; each test puts a broken copy first in LD_LIBRARY_PATH.
 * Compiled once per architecture (see loader/arch.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "lib/compare.h"

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

static void expect_error_of(const char *prog, const char *libdir, const char *const *must_contain)
{
	char env[256];
	snprintf(env, sizeof env, "LD_LIBRARY_PATH=%s", libdir);
	const char *const envs[] = {env, NULL};
	struct lt_case c = {.dir = "errors", .prog = prog, .env = envs};
	cr_assert_eq(lt_expect_load_error(&c, must_contain), 2, "both quickbind runs must pass");
}

static void expect_error(const char *libdir, const char *const *must_contain)
{
	/* the broken copy is there: a missing one would fail for another reason */
	char lib[256];
	snprintf(lib, sizeof lib, "errors/%s/libqbtbad.so", libdir);
	cr_assert(libdir[0] == '/' || access(lt_fixture_path(lib), F_OK) == 0,
		  "fixture %s is missing", lib);
	expect_error_of("prog", libdir, must_contain);
}

/* The same refusal in --list mode (load and relocate, run nothing). */
static void expect_list_error(const char *prog, const char *libdir, const char *const *must_contain)
{
	char env[4200], path[4096];
	snprintf(env, sizeof env, "LD_LIBRARY_PATH=%s", lt_fixture_path(libdir));
	snprintf(path, sizeof path, "%s.musl", lt_fixture_path(prog));
	char *const envp[] = {"PATH=/usr/bin:/bin", env, NULL};
	char *argv[] = {(char *)lt_loader(), "--list", path, NULL};
	struct run_opts o = {.envp = envp};
	struct run_result r;
	cr_assert(run_program(&r, argv, &o) == 0);
	cr_expect(r.exited && r.exit_code == 127, "--list %s: %s\n%s", prog, run_describe(&r), r.err);
	/* the refusal first; after it, as in musl's ldd, only the
	 * relocations that fail for want of the refused library */
	const char *nl = strchr(r.err, '\n');
	char *first = strndup(r.err, nl ? (size_t)(nl - r.err) : strlen(r.err));
	for (const char *const *m = must_contain; *m; m++)
		cr_expect(strstr(first, *m), "--list %s: the first line does not mention '%s':\n%s", prog, *m, r.err);
	for (const char *l = nl; l && l[1]; l = strchr(l + 1, '\n'))
		cr_expect(!strncmp(l + 1, "Error relocating ", 17) &&
			  strstr(l + 1, ": symbol not found") < strchr(l + 1, '\n'),
			  "--list %s: a line after the refusal is not a symbol not found:\n%s", prog, r.err);
	free(first);
	run_result_free(&r);
}

Test(LT_SUITE(loader_errors), missing_library)
{
	expect_error("/nonexistent/qbt", LIST("libqbtbad.so", "No such file or directory"));
}

Test(LT_SUITE(loader_errors), missing_library_needed_by_a_library)
{
	expect_error_of("prog_indirect", "needs",
			LIST("libqbtgone.so", "No such file or directory", "libqbtneeds.so"));
}

Test(LT_SUITE(loader_errors), missing_symbol)
{
	expect_error("nosym", LIST("prog", "bad_fn", "symbol not found"));
}

Test(LT_SUITE(loader_errors), not_an_elf_file)
{
	expect_error("notelf", LIST("libqbtbad.so"));
}

Test(LT_SUITE(loader_errors), wrong_architecture)
{
	expect_error("wrongarch", LIST("libqbtbad.so"));
}

Test(LT_SUITE(loader_errors), truncated_in_elf_header)
{
	expect_error("trunc_hdr", LIST("libqbtbad.so"));
}

Test(LT_SUITE(loader_errors), truncated_in_program_headers)
{
	expect_error("trunc_ph", LIST("libqbtbad.so"));
}

Test(LT_SUITE(loader_errors), truncated_in_segments)
{
	expect_error("trunc_seg", LIST("libqbtbad.so"));
}

Test(LT_SUITE(loader_errors), program_headers_past_end_of_file)
{
	expect_error("badphoff", LIST("libqbtbad.so"));
}

Test(LT_SUITE(loader_errors), segment_file_size_past_end_of_file)
{
	expect_error("badfilesz", LIST("libqbtbad.so"));
}

Test(LT_SUITE(loader_errors), unsupported_relocation_type)
{
	expect_error("badreltype", LIST("libqbtbad.so", LT_BAD_RELTYPE));
}

/* Broken programs, run through PT_INTERP (mapped by the kernel) and by
 * direct invocation (mapped by the loader). */
static void expect_bad_program(const char *kind, const char *const *must_contain)
{
	char prog[64];
	snprintf(prog, sizeof prog, "badexe_%s/prog", kind);
	char built[96];
	snprintf(built, sizeof built, "errors/%s.qb", prog);
	cr_assert(access(lt_fixture_path(built), X_OK) == 0, "fixture %s is missing", built);
	expect_error_of(prog, "link", must_contain);
}

Test(LT_SUITE(loader_errors), program_entry_point_outside_its_code)
{
	expect_bad_program("entry", LIST("prog", "entry point outside the code"));
}

Test(LT_SUITE(loader_errors), program_headers_in_an_unreadable_segment)
{
	expect_bad_program("phdr", LIST("prog"));
}

Test(LT_SUITE(loader_errors), program_segment_past_end_of_file)
{
	expect_bad_program("filesz", LIST("prog", "past the end of the file"));
}

/* Issue 11: a PT_GNU_RELRO over addresses the library does not own (0 to
 * 0x100000) once made the loader mprotect its own memory read-only. */
Test(LT_SUITE(loader_errors), relro_outside_the_writable_segments)
{
	expect_error("relro", LIST("libqbtbad.so", "PT_GNU_RELRO"));
	expect_list_error("errors/prog", "errors/relro", LIST("libqbtbad.so", "PT_GNU_RELRO"));
}

/* Issue 11: GNU hash buckets of 0x80000000 (sizes computed from them wrap
 * in 32 bits: on i386 the loader once died of SIGBUS). */
Test(LT_SUITE(loader_errors), gnu_hash_bucket_past_every_table)
{
	/* musl's loader does not check the buckets: on i386 the wrapped
	 * sizes may even land inside the table and it runs the program */
	const char *const envs[] = {"LD_LIBRARY_PATH=gnubucket", NULL};
	struct lt_case c = {.dir = "errors", .prog = "prog", .env = envs, .ref_accepts = 1};
	cr_assert_eq(lt_expect_load_error(&c, LIST("libqbtbad.so", "DT_GNU_HASH")), 2,
		     "both quickbind runs must pass");
	expect_list_error("errors/prog", "errors/gnubucket", LIST("libqbtbad.so", "DT_GNU_HASH"));
}

/* Issue 11: the program's PT_TLS is checked however the program was
 * mapped (by the kernel through PT_INTERP, or by the loader). */
Test(LT_SUITE(loader_errors), program_tls_size_wraps)
{
	/* musl's loader runs it, with its TLS size wrapped */
	const char *const envs[] = {"LD_LIBRARY_PATH=link", NULL};
	struct lt_case c = {.dir = "errors", .prog = "badexe_tlsmemsz/prog", .env = envs,
			    .ref_accepts = 1};
	cr_assert_eq(lt_expect_load_error(&c, LIST("prog", "TLS segment too large")), 2,
		     "both quickbind runs must pass");
	expect_list_error("errors/badexe_tlsmemsz/prog", "errors/link", LIST("prog", "TLS segment too large"));
}
