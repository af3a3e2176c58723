/* What tools see of the loader, and where it puts a program that asks for
 * fixed addresses, on each configured architecture (fixtures: the
 * observables suite's, build/tests/observe/ARCH):
 *   - valgrind's memcheck on a musl program with a leak and an invalid
 *     write of its own and an uninitialised branch and a leak in a library
 *     reports the same frames and heap summary under quickbind as under
 *     musl's loader, with the same options (--soname-synonyms=somalloc=NONE,
 *     which musl needs: its malloc is in an object without a soname);
 *   - a fixed-address program (ET_EXEC) run as a command runs as under
 *     musl's loader, and one whose segments would land on the loader, its
 *     heap, the vDSO or the stack is refused with one line, exit 127.
 *     Addresses are made reproducible with setarch -R (no randomization),
 *     learnt from a run of the same loader, and the program's headers
 *     moved there. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/fixture.h"
#include "lib/run.h"

#ifndef OBS_FIXTURES
#error "OBS_FIXTURES, OBS_ARCHS and the loaders come from tests/observe.mk"
#endif

struct arch {
	const char *name, *musl, *qb;
	int wide;
};
static const struct arch archs[] = {
	{ "x86_64", "/lib/ld-musl-x86_64.so.1", OBS_LOADER_x86_64, 1 },
	{ "i386", "/lib/ld-musl-i386.so.1", OBS_LOADER_i386, 0 },
};

static const struct arch *need(int i)
{
	const struct arch *a = &archs[i];
	if (!arch_configured(OBS_ARCHS, a->name) || !*a->qb)
		cr_skip_test("%s is not configured", a->name);
	return a;
}

static void run_in(struct run_result *r, const struct arch *a, char *const *argv)
{
	struct run_opts o = { .cwd = fixture_path(OBS_FIXTURES, a->name), .envp = run_base_env,
		.timeout_s = 120 };
	cr_assert_eq(run_program(r, argv, &o), 0, "cannot run %s", argv[0]);
}

/* ------------------------------------------------------------ valgrind -- */

/* memcheck's report without what differs from run to run or between the
 * two builds of the program: process ids, addresses, the program's
 * name. */
static char *neutral(const char *s)
{
	size_t cap = strlen(s) + 1, n = 0;
	char *o = malloc(cap);
	for (const char *p = s; *p;) {
		if (p[0] == '=' && p[1] == '=') {
			const char *q = p + 2;
			while (*q >= '0' && *q <= '9')
				q++;
			if (q > p + 2 && q[0] == '=' && q[1] == '=') {
				p = q + 2;
				continue;
			}
		}
		if (p[0] == '0' && p[1] == 'x') {
			for (p += 2; (*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'F') || (*p >= 'a' && *p <= 'f'); p++)
				;
			o[n++] = 'A';
			continue;
		}
		if (!strncmp(p, "vgprog.musl", 11) || !strncmp(p, "vgprog.qb", 9)) {
			p += p[7] == 'm' ? 11 : 9;
			memcpy(o + n, "vgprog", 6);
			n += 6;
			continue;
		}
		o[n++] = *p++;
	}
	o[n] = 0;
	return o;
}

static void memcheck(const struct arch *a)
{
	char *out[2];
	for (int q = 0; q < 2; q++) {
		char *argv[] = { "/usr/bin/valgrind", "--soname-synonyms=somalloc=NONE", "--leak-check=full",
			q ? "./vgprog.qb" : "./vgprog.musl", NULL };
		struct run_result r;
		run_in(&r, a, argv);
		cr_assert(r.exited && r.exit_code == 0 && !strcmp(r.out, "done l\n"),
			  "%s: memcheck %s: %s\n%s%s", a->name, argv[3], run_describe(&r), r.out, r.err);
		out[q] = neutral(r.err);
		run_result_free(&r);
	}
	/* the reference itself names every frame and tracks the heap */
	static const char *const must[] = { "Invalid write of size 1", "main (vgprog.c:15)",
		"Conditional jump or move depends on uninitialised value", "vg_branch (vglib.c:",
		"vg_leak (vglib.c:", "total heap usage: 3 allocs, 0 frees, 70 bytes allocated",
		"definitely lost: 70 bytes in 3 blocks", NULL };
	for (const char *const *m = must; *m; m++)
		cr_expect(strstr(out[0], *m), "%s: musl's memcheck report lacks '%s':\n%s", a->name, *m, out[0]);
	cr_expect(!strcmp(out[0], out[1]), "%s: memcheck differs\n--- under musl's loader:\n%s"
		  "--- under quickbind:\n%s", a->name, out[0], out[1]);
	free(out[0]);
	free(out[1]);
}

/* ../shared/repro/parity/04-valgrind-no-symbols */
Test(tools, memcheck_x86_64, .timeout = 300)
{
	memcheck(need(0));
}

Test(tools, memcheck_i386, .timeout = 300)
{
	SKIP_IF_I386_EMULATED(1, "valgrind's x86 tool cannot run under it");
	memcheck(need(1));
}

/* -------------------------------------------------------- fixed addresses -- */

static void fixed_runs(const struct arch *a)
{
	struct run_result m, q;
	char *am[] = { (char *)a->musl, "./probe_fixed.musl", "hello", "x", NULL };
	char *aq[] = { (char *)a->qb, "./probe_fixed.musl", "hello", "x", NULL };
	run_in(&m, a, am);
	run_in(&q, a, aq);
	cr_expect(m.exited && m.exit_code == 0 && strstr(m.out, "arg x"), "%s: musl: %s\n%s%s", a->name,
		  run_describe(&m), m.out, m.err);
	cr_expect(q.exited && q.exit_code == 0 && !strcmp(q.out, m.out), "%s: quickbind: %s\n%s%s\n--- musl:\n%s",
		  a->name, run_describe(&q), q.out, q.err, m.out);
	run_result_free(&m);
	run_result_free(&q);
}

Test(tools, fixed_address_program_runs_x86_64)
{
	fixed_runs(need(0));
}

Test(tools, fixed_address_program_runs_i386)
{
	fixed_runs(need(1));
}

/* An address from a line of `setarch -R LOADER ARGS...`'s output: the
 * number after `after` on the first line holding `key`. */
static unsigned long long learn(const struct arch *a, char *const *args, const char *key, const char *after)
{
	char *argv[16] = { "/usr/bin/setarch", (char *)a->name, "-R", (char *)a->qb };
	int n = 4;
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	struct run_result r;
	run_in(&r, a, argv);
	cr_assert(r.exited && r.exit_code == 0, "%s: setarch -R: %s\n%s", a->name, run_describe(&r), r.err);
	const char *l = strstr(r.out, key);
	cr_assert(l, "%s: no '%s' in\n%s", a->name, key, r.out);
	const char *at = strstr(l, after);
	cr_assert(at, "%s: no '%s' after '%s' in\n%s", a->name, after, key, r.out);
	unsigned long long v = strtoull(at + strlen(after), 0, 16);
	run_result_free(&r);
	return v;
}

/* probe_fixed with every segment moved by the same amount so that its
 * first PT_LOAD starts at `at` (nothing of the program is read before its
 * segments are mapped: the headers are all a refusal needs). */
static unsigned long long ph_get(const struct arch *a, char *ph, int field)
{
	if (a->wide) {
		Elf64_Phdr *p = (Elf64_Phdr *)ph;
		return field == 0 ? p->p_type : field == 1 ? p->p_vaddr : p->p_paddr;
	}
	Elf32_Phdr *p = (Elf32_Phdr *)ph;
	return field == 0 ? p->p_type : field == 1 ? p->p_vaddr : p->p_paddr;
}

static void ph_move(const struct arch *a, char *ph, unsigned long long delta)
{
	if (a->wide) {
		((Elf64_Phdr *)ph)->p_vaddr += delta;
		((Elf64_Phdr *)ph)->p_paddr += delta;
	} else {
		((Elf32_Phdr *)ph)->p_vaddr += (Elf32_Addr)delta;
		((Elf32_Phdr *)ph)->p_paddr += (Elf32_Addr)delta;
	}
}

static char *moved_program(const struct arch *a, const char *dir, unsigned long long at)
{
	size_t n;
	char *b = must_read_file(fixture_path(fixture_path(OBS_FIXTURES, a->name), "probe_fixed.musl"), &n);
	size_t phoff = a->wide ? ((Elf64_Ehdr *)b)->e_phoff : ((Elf32_Ehdr *)b)->e_phoff;
	unsigned phnum = a->wide ? ((Elf64_Ehdr *)b)->e_phnum : ((Elf32_Ehdr *)b)->e_phnum;
	size_t ent = a->wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	unsigned long long first = ~0ULL;
	for (unsigned i = 0; i < phnum; i++)
		if (ph_get(a, b + phoff + i * ent, 0) == PT_LOAD && first == ~0ULL)
			first = ph_get(a, b + phoff + i * ent, 1) & ~0xfffULL;
	cr_assert(first != ~0ULL, "probe_fixed has no PT_LOAD");
	for (unsigned i = 0; i < phnum; i++)
		if (ph_get(a, b + phoff + i * ent, 0) != PT_GNU_STACK)
			ph_move(a, b + phoff + i * ent, at - first);
	static char path[4200];
	snprintf(path, sizeof path, "%s/fixed", dir);
	FILE *f = fopen(path, "wb");
	cr_assert(f && fwrite(b, 1, n, f) == n && !fclose(f));
	chmod(path, 0755);
	free(b);
	return path;
}

static void expect_refused(const struct arch *a, const char *what, unsigned long long at, const char *reason)
{
	char *d = make_tmpdir(NULL);
	char *prog = moved_program(a, d, at);
	for (int list = 0; list < 2; list++) {
		char *argv[] = { "/usr/bin/setarch", (char *)a->name, "-R", (char *)a->qb, list ? "--list" : prog,
			list ? prog : "hello", NULL };
		struct run_result r;
		run_in(&r, a, argv);
		cr_expect(r.exited && r.exit_code == 127 && count_lines(r.err) == 1 && strstr(r.err, prog) &&
			  strstr(r.err, reason) && !r.out_len,
			  "%s: a program at %#llx (%s)%s: %s\nstdout:\n%sstderr:\n%s(expected one line with '%s')",
			  a->name, at, what, list ? ", --list" : "", run_describe(&r), r.out, r.err, reason);
		run_result_free(&r);
	}
	char rm[4300];
	snprintf(rm, sizeof rm, "rm -rf '%s'", d);
	cr_assert_eq(system(rm), 0);
	free(d);
}

/* Where the loader's own memory lies in a `setarch -R LOADER --list
 * ./probe.musl` run: LD_DEBUG=statistics names its region. A run of the
 * loader as a command maps the same before it maps the program. */
static unsigned long long learn_memory(const struct arch *a)
{
	char *argv[] = { "/usr/bin/setarch", (char *)a->name, "-R", (char *)a->qb, "--list",
		"./probe.musl", NULL };
	char *env[64];
	size_t n = 0;
	for (char *const *e = run_base_env; *e && n < 62; e++)
		env[n++] = *e;
	env[n++] = "LD_DEBUG=statistics";
	env[n] = NULL;
	struct run_opts o = { .cwd = fixture_path(OBS_FIXTURES, a->name), .envp = env, .timeout_s = 120 };
	struct run_result r;
	cr_assert_eq(run_program(&r, argv, &o), 0, "cannot run %s", argv[0]);
	const char *l = strstr(r.err, "memory=");
	const char *at = l ? strstr(l, "region at 0x") : 0;
	cr_assert(r.exited && r.exit_code == 0 && at, "%s: no region in LD_DEBUG=statistics: %s\n%s", a->name,
		  run_describe(&r), r.err);
	unsigned long long v = strtoull(at + strlen("region at "), 0, 16);
	run_result_free(&r);
	return v;
}

static void placement(const struct arch *a)
{
	char *list[] = { "--list", "./probe.musl", NULL };
	char *maps[] = { "./probe.musl", "maps", NULL };
	/* ldd's first line: the loader and its address */
	unsigned long long ldso = learn(a, list, a->musl, "(0x");
	unsigned long long mem = learn_memory(a);
	unsigned long long vdso = learn(a, maps, "map vdso", "0x");
	unsigned long long stack = learn(a, maps, "map stack", "0x");
	expect_refused(a, "the loader", ldso, "address range already in use");
	expect_refused(a, "the loader's memory", mem, "address range already in use");
	expect_refused(a, "the vDSO", vdso, "address range already in use");
	expect_refused(a, "the stack", stack, "segments overlap the stack");
	expect_refused(a, "below the stack, where it grows", stack - 0x10000, "segments overlap the stack");
	expect_refused(a, "page zero", 0, "segments at address 0");
}

Test(tools, fixed_address_program_refused_on_memory_in_use_x86_64)
{
	placement(need(0));
}

Test(tools, fixed_address_program_refused_on_memory_in_use_i386)
{
	SKIP_IF_I386_EMULATED(1, "qemu lays out the process's memory itself");
	placement(need(1));
}
