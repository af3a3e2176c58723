/* libFuzzer target: linkopt's reader and writer, from tools/linkopt's own
 * sources. Each input is a file that goes through what a user does with
 * it: --dump and --check, then -o OUT; when linkopt wrote OUT, --dump and
 * --check on OUT too. Beyond "no crash, no sanitizer report":
 *   - the input file is byte-identical afterwards;
 *   - a file linkopt wrote is one linkopt itself can read again;
 *   - nothing is left behind: the staged output is committed or
 *     discarded, as linkopt's main does (its temporary files go with it).
 * Needed libraries are found only in FUZZ_SYSROOT (set by the build: small
 * libraries of the seed corpus), never on the host. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkopt.h"
#include "objcache.h"
#include "output.h"

#ifndef FUZZ_SYSROOT
#error "FUZZ_SYSROOT (the libraries needed by the seeds) must be defined by the build"
#endif

static char dir[4096], in[4200], out[4200];
static const char *ldirs[2];
static struct opts o;

static void cleanup(void)
{
	unlink(in);
	unlink(out);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* in memory where possible: each input is written, read back and
	 * rewritten several times, and a rename over a file on a disk file
	 * system can wait for its data */
	const char *t = getenv("TMPDIR");
	if (!t || !*t)
		t = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof dir, "%s/qb-fuzz-linkopt.XXXXXX", t);
	if (!mkdtemp(dir))
		abort();
	snprintf(in, sizeof in, "%s/in.so", dir);
	snprintf(out, sizeof out, "%s/out.so", dir);
	atexit(cleanup);
	o.sort = 1;
	o.so.root = FUZZ_SYSROOT;
	ldirs[0] = FUZZ_SYSROOT "/lib";
	ldirs[1] = FUZZ_SYSROOT "/lib32";
	o.so.ldirs = ldirs;
	o.so.nldirs = 2;
	/* linkopt's one-line reports and dumps, millions of them, go nowhere;
	 * sanitizer and libFuzzer reports do not use these streams */
	FILE *null = fopen("/dev/null", "we");
	if (!null)
		abort();
	stdout = null;
	stderr = null;
	return 0;
}

static void put(const char *path, const uint8_t *d, size_t n)
{
	FILE *f = fopen(path, "we");
	if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f))
		abort();
}

static int same(const char *path, const uint8_t *d, size_t n)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	uint8_t *b = malloc(n + 1);
	size_t got = fread(b, 1, n + 1, f);
	fclose(f);
	int r = got == n && !memcmp(b, d, n);
	free(b);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	put(in, data, size);
	unlink(out);
	dump_file(in, &o);
	check_file(in, &o);
	struct opts w = o;
	w.out = out;
	int rc = optimize_file(in, &w);
	/* as linkopt's main does: the staged output replaces OUT only when
	 * the run succeeded, and is discarded otherwise */
	const char *failed = NULL;
	char err[512];
	if (rc != LO_OK)
		lo_abort();
	else if (lo_commit(&failed, err, sizeof err) < 0)
		rc = LO_ERR;
	objcache_clear();
	if (!same(in, data, size)) {
		fprintf(stderr, "fuzz_linkopt: the input file changed\n");
		abort();
	}
	if (rc == LO_OK && access(out, F_OK) == 0) {
		struct elf e;
		if (elf_load_file(&e, out) < 0) {
			fprintf(stderr, "fuzz_linkopt: linkopt cannot read what it wrote: %s\n", e.err);
			abort();
		}
		elf_free(&e);
		dump_file(out, &o);
		check_file(out, &o);
	}
	return 0;
}
