/* The switch table (ldso/switches.h) is the one list of the loader's
 * environment variables: the table of docs/LOADER.md, the loader's --help and
 * secure mode's removal must each name exactly those. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "secureenv.h"
#include "switches.h"

#define SW_NAME(name, f, kind, help) name,
static const char *const names[] = { QB_SWITCHES(SW_NAME) };
#define NSW (sizeof names / sizeof *names)

static char *slurp(FILE *f)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	cr_assert(buf);
	for (size_t k; (k = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
		n += k;
		if (n + 1 == cap)
			cr_assert(buf = realloc(buf, cap *= 2));
	}
	buf[n] = 0;
	return buf;
}

static int is_switch(const char *name, size_t len)
{
	for (size_t i = 0; i < NSW; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			return 1;
	return 0;
}

Test(switches, loader_doc_lists_every_switch_and_no_other)
{
	FILE *f = fopen(QB_LOADER_DOC, "r");
	cr_assert(f, "cannot open %s", QB_LOADER_DOC);
	char *doc = slurp(f);
	fclose(f);
	size_t rows = 0;
	/* the rows of the environment table: "| `LD_NAME" or "| `LD_NAME=..." */
	for (const char *l = doc; (l = strstr(l, "\n| `LD_")); l++) {
		const char *name = l + 4;
		size_t len = strcspn(name, "`= /");
		cr_expect(is_switch(name, len), "LOADER.md lists %.*s, which the loader does not read",
			(int)len, name);
		rows++;
	}
	for (size_t i = 0; i < NSW; i++) {
		char row[64];
		snprintf(row, sizeof row, "\n| `%s", names[i]);
		cr_expect(strstr(doc, row), "LOADER.md's environment table lacks %s", names[i]);
	}
	cr_expect_eq(rows, NSW, "LOADER.md's environment table has %zu rows, the switch table %zu", rows, NSW);
	free(doc);
}

Test(switches, help_lists_every_switch)
{
	FILE *p = popen(QB_LOADER " --help", "r");
	cr_assert(p);
	char *out = slurp(p);
	cr_expect_eq(pclose(p), 0, "--help failed:\n%s", out);
	for (size_t i = 0; i < NSW; i++) {
		char line[64];
		snprintf(line, sizeof line, "  %s\t", names[i]);
		cr_expect(strstr(out, line), "--help does not list %s:\n%s", names[i], out);
	}
	free(out);
}

Test(switches, secure_mode_removes_every_switch)
{
	static size_t stack[2 * NSW + 16];
	size_t n = 0;
	char vars[NSW][80];
	stack[n++] = 1;
	stack[n++] = (size_t)"prog";
	stack[n++] = 0;
	for (size_t i = 0; i < NSW; i++) {
		snprintf(vars[i], sizeof vars[i], "%s=1", names[i]);
		stack[n++] = (size_t)vars[i];
	}
	stack[n++] = (size_t)"HOME=/root";
	stack[n++] = 0;
	stack[n++] = 6;
	stack[n++] = 4096;
	stack[n++] = 0;
	stack[n++] = 0;
	size_t *sp = qb_secure_env(stack);
	cr_assert_eq(sp[0], 1);
	char **env = (char **)(sp + 3);
	cr_expect_str_eq(env[0], "HOME=/root");
	cr_expect_null(env[1], "a switch stayed in a secure process's environment: %s", env[1]);
}
