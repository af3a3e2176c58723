#include "i3fhelp.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int has_line(const char *s, const char *a, const char *b)
{
	for (const char *line = s; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *pa = strstr(line, a), *pb = strstr(line, b);
		if (pa && pb && pa < line + len && pb < line + len)
			return 1;
		line = end ? end + 1 : NULL;
	}
	return 0;
}

unsigned dump_flags(const char *file, const char *name)
{
	const char *argv[] = {fp_linkopt(), "--dump", fp_fixture(file), NULL};
	char *out = fp_command_output(argv);
	cr_assert(strstr(out, "ELFCLASS32 i386"), "%s is not reported as an i386 file:\n%s", file, out);
	char pat[128];
	snprintf(pat, sizeof pat, " %s\n", name);
	char *p = strstr(out, pat);
	cr_assert(p, "no syminfo entry for %s in the dump of %s:\n%s", name, file, out);
	char *line = p;
	while (line > out && line[-1] != '\n')
		line--;
	char *flags = strstr(line, " 0x");
	cr_assert(flags && flags < p, "no flags for %s in: %.*s", name, (int)(p - line), line);
	unsigned v = (unsigned)strtoul(flags + 1, NULL, 16);
	free(out);
	return v;
}

void expect_elf32_i386(const char *file)
{
	const char *argv[] = {"/usr/bin/readelf", "-h", fp_fixture(file), NULL};
	char *out = fp_command_output(argv);
	cr_assert(strstr(out, "ELF32") && strstr(out, "Intel 80386"), "%s is not an i386 ELF32 file:\n%s",
		  file, out);
	free(out);
}
